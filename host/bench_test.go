package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// streamAgent answers "stream N" with N deltas of 32 bytes, spread over
// agent messages of 1,000 deltas each (so no field reaches its bound).
type streamAgent struct{}

func (streamAgent) Launch(string) error { return nil }

func (streamAgent) Run(ctx context.Context, t *host.Turn) error {
	n, _ := strconv.Atoi(strings.TrimPrefix(t.Prompt(), "stream "))
	chunk := strings.Repeat("y", 31) + " "
	id := ""
	for i := range n {
		if i%1000 == 0 {
			if id != "" {
				if err := t.CompleteItem(id, model.StatusCompleted, nil); err != nil {
					return err
				}
			}
			var err error
			if id, err = t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""}); err != nil {
				return err
			}
		}
		if err := t.Delta(id, "text", chunk); err != nil {
			return err
		}
	}
	if id != "" {
		return t.CompleteItem(id, model.StatusCompleted, nil)
	}
	return nil
}

// BenchmarkFanout100Subscribers streams b.N deltas (plus an item/started and
// item/completed per 1,000) through a durable host to 100 subscribers over
// real WebSockets, and reports deliveries per second across them.
func BenchmarkFanout100Subscribers(b *testing.B) {
	const subscribers = 100
	h := hosttest.Start(b, host.Options{AgentImpl: streamAgent{}, OutboundQueue: 1 << 22})
	owner := hosttest.Dial(b, h)
	var cr struct{ SessionID string }
	owner.MustCall(b, "session/create", map[string]any{}, &cr)
	sid := cr.SessionID

	readers := make([]*websocket.Conn, subscribers)
	for i := range readers {
		ws, _, err := websocket.DefaultDialer.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
		if err != nil {
			b.Fatal(err)
		}
		defer ws.Close()
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "session/subscribe", "params": map[string]any{"sessionId": sid}})
		if err := ws.WriteMessage(websocket.TextMessage, req); err != nil {
			b.Fatal(err)
		}
		if _, _, err := ws.ReadMessage(); err != nil { // the answer
			b.Fatal(err)
		}
		readers[i] = ws
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	counts := make([]int, subscribers)
	for i, ws := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, data, err := ws.ReadMessage()
				if err != nil {
					return
				}
				counts[i]++
				if strings.Contains(string(data), `"method":"turn/completed"`) {
					return
				}
			}
		}()
	}
	if _, _, err := owner.Submit(sid, "bench", fmt.Sprint("stream ", b.N)); err != nil {
		b.Fatal(err)
	}
	wg.Wait()
	b.StopTimer()
	total := 0
	for _, n := range counts {
		total += n
	}
	if total < subscribers*b.N {
		b.Fatalf("%d deliveries, want at least %d", total, subscribers*b.N)
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "deliveries/s")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkViewPage reads after pages of 200 events from a 10,000-event
// durable session over a real WebSocket.
func BenchmarkViewPage(b *testing.B) {
	h := hosttest.Start(b, host.Options{AgentImpl: burstAgent{}})
	c := hosttest.Dial(b, h)
	var cr struct{ SessionID string }
	c.MustCall(b, "session/create", map[string]any{}, &cr)
	sid := cr.SessionID
	sub, err := c.Subscribe(sid, "", "", 0)
	if err != nil {
		b.Fatal(err)
	}
	_, turn, err := c.Submit(sid, "burst", "burst 9997")
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := c.WaitEvent(nil, hosttest.TurnCompleted(turn)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	events := 0
	for i := 0; i < b.N; i++ {
		cursor := model.FormatCursor(sid, int64((i*211)%9800))
		res, rerr, err := c.Call("view/page", map[string]any{"sessionId": sid, "epoch": sub.Epoch, "direction": "after", "cursor": cursor, "limit": 200})
		if err != nil || rerr != nil {
			b.Fatal(err, rerr)
		}
		var p struct{ Events []json.RawMessage }
		if err := json.Unmarshal(res, &p); err != nil {
			b.Fatal(err)
		}
		events += len(p.Events)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
