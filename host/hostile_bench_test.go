package host_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// BenchmarkHostileMix: 200 connections pipeline large view/page requests
// without reading while 20 more flood invalid frames, and a victim runs
// turns. It reports the process's peak RSS (host and clients are one
// process here; the hostile clients hold almost nothing) and the victim's
// turn latency. Target (issue 24, item 4): RSS under 256 MiB, the victim's
// latency as without the attack.
func BenchmarkHostileMix(b *testing.B) {
	// As `lookout serve` runs (its --memory-limit): GC keeps the heap
	// near the limit rather than at twice the live heap.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(host.DefaultMemoryLimit))
	for range b.N {
		h := hosttest.Start(b, host.Options{AgentImpl: bigAgent{}, SendBuffer: 16 << 10})
		victim := hosttest.Dial(b, h)
		var res struct{ SessionID string }
		victim.MustCall(b, "session/create", nil, &res)
		sid := res.SessionID
		if _, err := victim.Subscribe(sid, "", "", 0); err != nil {
			b.Fatal(err)
		}
		victimTurn(b, victim, sid, "big 24")
		quiet := victimLatency(b, victim, sid, 10)
		base := peakRSS()
		stop := make(chan struct{})
		heapc := heapPeak(stop)
		header := http.Header{"Authorization": {"Bearer " + h.Token()}}
		var hostile []*websocket.Conn
		for i := range 200 {
			ws, _, err := websocket.DefaultDialer.Dial(h.URL(), header)
			if err != nil {
				b.Fatalf("hostile %d: %v", i, err)
			}
			hostile = append(hostile, ws)
			go func() {
				for r := range 50 {
					req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": r + 1, "method": "view/page",
						"params": map[string]any{"sessionId": sid, "direction": "after", "limit": 1000}})
					_ = ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
					if ws.WriteMessage(websocket.TextMessage, req) != nil {
						return
					}
				}
			}()
		}
		for range 20 {
			ws, _, err := websocket.DefaultDialer.Dial(h.URL(), header)
			if err != nil {
				b.Fatal(err)
			}
			hostile = append(hostile, ws)
			go func() {
				for range 3000 {
					if ws.WriteMessage(websocket.TextMessage, []byte("{garbage")) != nil {
						return
					}
				}
			}()
		}
		attacked := victimLatency(b, victim, sid, 10)
		peak := peakRSS()
		close(stop)
		b.ReportMetric(float64(<-heapc)/(1<<20), "peakHeapInuse-MiB")
		b.ReportMetric(float64(base)/(1<<20), "baseRSS-MiB")
		for _, ws := range hostile {
			ws.Close()
		}
		for host.OutboundTotal(h) != 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(2 * time.Second) // the scavenger's pace, not the test's
		b.ReportMetric(float64(rss("VmRSS:"))/(1<<20), "afterRSS-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "peakRSS-MiB")
		b.ReportMetric(float64(quiet.Microseconds())/1000, "quiet-p50-ms")
		b.ReportMetric(float64(attacked.Microseconds())/1000, "attacked-p50-ms")
		b.ReportMetric(float64(host.BudgetSheds(h)), "budget-sheds")
		b.ReportMetric(float64(host.InvalidCloses(h)), "invalid-closes")
	}
}

// victimLatency is the median time from turn/submit to turn/completed
// over n short turns.
func victimLatency(b *testing.B, c *hosttest.Client, sid string, n int) time.Duration {
	var ds []time.Duration
	for range n {
		start := time.Now()
		victimTurn(b, c, sid, "hello")
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

var victimTurns int

func victimTurn(b *testing.B, c *hosttest.Client, sid, prompt string) {
	victimTurns++
	_, turnID, err := c.Submit(sid, "v"+strconv.Itoa(victimTurns), prompt)
	if err != nil {
		b.Fatal(err)
	}
	for {
		ev, err := c.NextEvent()
		if err != nil {
			b.Fatal(err)
		}
		if ev.Method == "turn/completed" && ev.TurnID == turnID {
			return
		}
	}
}

// peakRSS is the process's peak resident set (VmHWM).
func peakRSS() int64 { return rss("VmHWM:") }

// rss reads one of /proc/self/status's sizes (VmRSS:, VmHWM:).
func rss(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
