package host_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// BenchmarkSoak100Clients holds 100 subscribed clients on one durable
// session for LOOKOUT_SOAK (a Go duration; default 20s) while the demo
// agent answers prompts back to back, and reports the live heap (after a
// GC), goroutines and open descriptors at the first and the last sample,
// and the largest heap seen: flat numbers mean nothing accumulates per
// event or per turn. b.N is ignored; run it with -benchtime 1x.
func BenchmarkSoak100Clients(b *testing.B) {
	soak := 20 * time.Second
	if s := os.Getenv("LOOKOUT_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatalf("LOOKOUT_SOAK=%q: %v", s, err)
		}
		soak = d
	}
	const clients = 100
	h := hosttest.Start(b, host.Options{Pace: time.Millisecond})
	owner := hosttest.Dial(b, h)
	var cr struct{ SessionID string }
	owner.MustCall(b, "session/create", map[string]any{}, &cr)
	sid := cr.SessionID
	if _, err := owner.Subscribe(sid, "", "", 0); err != nil {
		b.Fatal(err)
	}

	var delivered sync.WaitGroup
	var mu sync.Mutex
	frames := 0
	conns := make([]*websocket.Conn, clients)
	for i := range conns {
		ws, _, err := websocket.DefaultDialer.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
		if err != nil {
			b.Fatal(err)
		}
		conns[i] = ws
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "session/subscribe", "params": map[string]any{"sessionId": sid}})
		if err := ws.WriteMessage(websocket.TextMessage, req); err != nil {
			b.Fatal(err)
		}
		delivered.Add(1)
		go func() {
			defer delivered.Done()
			n := 0
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					mu.Lock()
					frames += n
					mu.Unlock()
					return
				}
				n++
			}
		}()
	}
	type sample struct {
		heap       uint64
		goroutines int
		fds        int
	}
	take := func() sample {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fds, _ := os.ReadDir("/proc/self/fd")
		return sample{ms.HeapAlloc, runtime.NumGoroutine(), len(fds)}
	}
	b.ResetTimer()
	start := time.Now()
	var first, last sample
	var maxHeap uint64
	turns := 0
	for time.Since(start) < soak {
		_, turn, err := owner.Submit(sid, fmt.Sprintf("soak-%d", turns), "soak: a turn with compact and warning")
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := owner.WaitEvent(nil, hosttest.TurnCompleted(turn)); err != nil {
			b.Fatal(err)
		}
		turns++
		if turns == 5 {
			first = take() // after the first turns have warmed the caches
		}
		if turns%10 == 0 {
			s := take()
			maxHeap = max(maxHeap, s.heap)
			last = s
		}
	}
	last = take()
	b.StopTimer()
	for _, ws := range conns {
		ws.Close()
	}
	delivered.Wait()
	mib := func(v uint64) float64 { return float64(v) / (1 << 20) }
	b.ReportMetric(float64(turns), "turns")
	b.ReportMetric(float64(frames)/time.Since(start).Seconds(), "frames/s")
	b.ReportMetric(mib(first.heap), "heap-first-MiB")
	b.ReportMetric(mib(last.heap), "heap-last-MiB")
	b.ReportMetric(mib(maxHeap), "heap-max-MiB")
	b.ReportMetric(float64(first.goroutines), "goroutines-first")
	b.ReportMetric(float64(last.goroutines), "goroutines-last")
	b.ReportMetric(float64(first.fds), "fds-first")
	b.ReportMetric(float64(last.fds), "fds-last")
}
