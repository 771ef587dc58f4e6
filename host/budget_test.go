package host_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// dialRaw opens a WebSocket to h that the test drives frame by frame.
func dialRaw(t *testing.T, h *host.Host) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// waitUntil polls cond until it holds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hosttest.Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Many clients that pipeline large view/page requests and read nothing
// are bounded together, not only one by one: the host sheds the one
// holding the most queued bytes first (1013), its count never stays past
// the budget, and a client that reads keeps being served.
func TestHostileClientsShareOneOutboundBudget(t *testing.T) {
	const budget = 6 << 20
	h := hosttest.Start(t, host.Options{AgentImpl: bigAgent{}, TotalOutboundBytes: budget, SendBuffer: 16 << 10})
	victim := hosttest.Dial(t, h)
	sid, _, st := newSession(t, victim)
	runTurn(t, victim, sid, st, "big", "big 24") // every page answer is about PageBytes

	stop, peakc := make(chan struct{}), make(chan int64, 1)
	go func() { // the most the host ever had queued across connections
		var peak int64
		for {
			peak = max(peak, host.OutboundTotal(h))
			select {
			case <-stop:
				peakc <- peak
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	const hostile = 8 // each within its own 8 MiB bound; together past the budget
	conns := make([]*websocket.Conn, hostile)
	for i := range conns {
		conns[i] = dialRaw(t, h)
		for r := range 12 {
			req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": r + 1, "method": "view/page",
				"params": map[string]any{"sessionId": sid, "direction": "after", "limit": 1000}})
			_ = conns[i].SetWriteDeadline(time.Now().Add(hosttest.Timeout))
			if err := conns[i].WriteMessage(websocket.TextMessage, req); err != nil {
				break // the host closed it already: shed
			}
		}
	}
	waitUntil(t, "a shed for the budget", func() bool { return host.BudgetSheds(h) > 0 })
	close(stop)
	// The bound holds to within one frame (a page answer, about
	// PageBytes) per connection, never the 64 MiB the clients' own
	// bounds would let through.
	if peak, most := <-peakc, int64(budget+(hostile+1)*(host.PageBytes+host.PageBytes/4)); peak > most {
		t.Fatalf("the host had %d KiB queued across connections; budget %d KiB, at most %d KiB", peak>>10, budget>>10, most>>10)
	}
	// The victim still gets answers and runs turns.
	runTurn(t, victim, sid, st, "after", "hello after the flood")
	for _, ws := range conns {
		ws.Close()
	}
	waitUntil(t, "the queued bytes released", func() bool { return host.OutboundTotal(h) == 0 })
	t.Logf("%d connections shed for the budget; at most %d KiB queued on one", host.BudgetSheds(h), host.QueuedPeak(h)>>10)
}

// A connection that floods the host with invalid frames is closed with
// 1008 once past its burst; another connection is served meanwhile.
func TestInvalidFrameFloodClosesTheFlooder(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	victim := hosttest.Dial(t, h)
	ws := dialRaw(t, h)
	go func() { // read so the answers do not back up: the flood alone must close it
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	for range 2000 {
		_ = ws.SetWriteDeadline(time.Now().Add(hosttest.Timeout))
		if ws.WriteMessage(websocket.TextMessage, []byte("{not json")) != nil {
			break
		}
	}
	waitUntil(t, "the flooder closed", func() bool { return host.InvalidCloses(h) == 1 })
	var list struct{ Sessions []any }
	victim.MustCall(t, "session/list", nil, &list)
	// A few invalid frames are answered, as ever.
	other := hosttest.Dial(t, h)
	if err := other.Send([]byte("{not json")); err != nil {
		t.Fatal(err)
	}
	other.MustCall(t, "session/list", nil, &list)
	if host.InvalidCloses(h) != 1 {
		t.Fatalf("%d connections closed for invalid frames, want the flooder alone", host.InvalidCloses(h))
	}
}

// Past MaxConns an upgrade is refused with 503 before a WebSocket exists;
// a connection that leaves makes room.
func TestConnectionsAreBounded(t *testing.T) {
	h := hosttest.Start(t, host.Options{MaxConns: 3})
	var open []*websocket.Conn
	for range 3 {
		open = append(open, dialRaw(t, h))
	}
	_, resp, err := websocket.DefaultDialer.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a fourth connection: %v, response %v; want 503", err, resp)
	}
	open[0].Close()
	waitUntil(t, "room for a connection", func() bool {
		ws, _, err := websocket.DefaultDialer.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
		if err != nil {
			return false
		}
		ws.Close()
		return true
	})
}
