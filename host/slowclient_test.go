package host_test

import (
	"context"
	"encoding/json"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// bigAgent answers "big N" with N completed agent messages of 60 KiB each,
// so that one view/page answer is about PageBytes.
type bigAgent struct{ host.DemoAgent }

func (a bigAgent) Run(ctx context.Context, t *host.Turn) error {
	n, ok := strings.CutPrefix(t.Prompt(), "big ")
	if !ok {
		return a.DemoAgent.Run(ctx, t)
	}
	count, _ := strconv.Atoi(n)
	text := strings.Repeat("y", 60<<10)
	for range count {
		if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": text}); err != nil {
			return err
		}
	}
	return nil
}

// heapPeak samples the heap in use until stop is closed and returns the
// highest sample.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// A client that pipelines view/page requests and reads nothing must not
// grow the host beyond its outbound byte bound: the host closes it with
// 1013, and the client, once it reads, gets the close frame (not an
// abrupt 1006).
func TestNonReadingClientIsBoundedInBytesAndClosedWith1013(t *testing.T) {
	h := hosttest.Start(t, host.Options{AgentImpl: bigAgent{}})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	runTurn(t, c, sid, st, "big", "big 24") // about 1.4 MiB: every page answer is about PageBytes
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	stop := make(chan struct{})
	peakc := heapPeak(stop)

	ws, _, err := websocket.DefaultDialer.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	const requests = 200 // about 200 MiB of answers
	for i := range requests {
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "view/page",
			"params": map[string]any{"sessionId": sid, "direction": "after", "limit": 1000}})
		if err := ws.SetWriteDeadline(time.Now().Add(hosttest.Timeout)); err != nil {
			t.Fatal(err)
		}
		if err := ws.WriteMessage(websocket.TextMessage, req); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	deadline := time.Now().Add(hosttest.Timeout)
	for host.SlowCloses(h) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the host never closed the client that does not read")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	peak := <-peakc
	t.Logf("heap in use: %d MB before the client, %d MB at most while it did not read; host queued at most %d KiB",
		base>>20, peak>>20, host.QueuedPeak(h)>>10)
	if q := host.QueuedPeak(h); q > host.DefaultOutboundBytes {
		t.Fatalf("the host queued %d bytes for one client, bound %d", q, host.DefaultOutboundBytes)
	}
	if grew := int64(peak) - int64(base); grew > 128<<20 {
		t.Fatalf("the heap grew by %d MB for one client that does not read", grew>>20)
	}
	if err := ws.SetReadDeadline(time.Now().Add(hosttest.Timeout)); err != nil {
		t.Fatal(err)
	}
	frames := 0
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			frames++
			continue
		}
		if !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
			t.Fatalf("after %d answers the client read %v, want close 1013", frames, err)
		}
		break
	}
	if frames >= requests {
		t.Fatalf("all %d requests were answered", frames)
	}
	// The host is fine: another client is served.
	var list struct{ Sessions []any }
	c.MustCall(t, "session/list", nil, &list)
}
