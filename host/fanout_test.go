package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// floodAgent answers "flood N" with N agent messages, each streamed in four
// 512-byte deltas, and delegates anything else to the demo agent. With a
// gate, it waits for a token after every wave of floodWave messages.
type floodAgent struct {
	host.DemoAgent
	gate chan struct{}
}

const (
	floodWave  = 5
	floodCount = 100
)

func (a floodAgent) Run(ctx context.Context, t *host.Turn) error {
	n, ok := strings.CutPrefix(t.Prompt(), "flood ")
	if !ok {
		return a.DemoAgent.Run(ctx, t)
	}
	count, _ := strconv.Atoi(n)
	chunk := strings.Repeat("x", 511) + "\n"
	for i := range count {
		if a.gate != nil && i > 0 && i%floodWave == 0 {
			select {
			case <-a.gate:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
		if err != nil {
			return err
		}
		for range 4 {
			if err := t.Delta(id, "text", chunk); err != nil {
				return err
			}
		}
		if err := t.CompleteItem(id, model.StatusCompleted, nil); err != nil {
			return err
		}
	}
	return nil
}

// dialStalled opens a WebSocket with a tiny receive buffer, subscribes, and
// never reads again.
func dialStalled(t *testing.T, h *host.Host, sid string) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{NetDialContext: (&net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) }); err != nil {
			return err
		}
		return serr
	}}).DialContext}
	ws, _, err := d.Dial(h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "session/subscribe", "params": map[string]any{"sessionId": sid}})
	if err := ws.WriteMessage(websocket.TextMessage, req); err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestTwentyClientsOneNeverReads(t *testing.T) {
	// The agent floods in waves of floodWave messages (about 30 frames) and
	// moves on once every reader has read the wave: readers never hold more
	// than the queue bound, while the stalled client falls further behind
	// with every wave. No timing is involved.
	gate := make(chan struct{})
	h := hosttest.Start(t, host.Options{Ephemeral: true, AgentImpl: floodAgent{gate: gate}, OutboundQueue: 64, SendBuffer: 16 << 10})
	owner := hosttest.Dial(t, h)
	var cr struct{ SessionID string }
	owner.MustCall(t, "session/create", map[string]any{}, &cr)
	sid := cr.SessionID
	stalled := dialStalled(t, h, sid)

	const readers = 19
	clients := make([]*hosttest.Client, readers)
	for i := range clients {
		clients[i] = hosttest.Dial(t, h)
		if _, err := clients[i].Subscribe(sid, "", "", 0); err != nil {
			t.Fatal(err)
		}
	}
	_, turn, err := owner.Submit(sid, "flood", fmt.Sprint("flood ", floodCount))
	if err != nil {
		t.Fatal(err)
	}
	states := make([]*model.State, readers)
	errs := make(chan error, readers)
	waves := make(chan int, readers)
	go func() {
		done := map[int]int{}
		for w := range waves {
			done[w]++
			if done[w] == readers && w < floodCount/floodWave {
				select {
				case gate <- struct{}{}:
				case <-time.After(hosttest.Timeout):
					return
				}
			}
		}
	}()
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := model.NewState(sid)
			states[i] = st
			for {
				ev, err := c.NextEvent()
				if err != nil {
					errs <- fmt.Errorf("reader %d: %w", i, err)
					return
				}
				if ev.Durable && ev.PrevSeq != st.DurableCursor {
					errs <- fmt.Errorf("reader %d: gap before seq %d", i, ev.Seq)
					return
				}
				if ev.Method == model.MethodItemCompleted {
					if held := st.Item(ev.Item.ID); held != nil && !strings.HasPrefix(ev.Item.Text(), held.Text()) {
						errs <- fmt.Errorf("reader %d: streamed text is not a prefix of the final text", i)
						return
					}
				}
				if err := st.Apply(ev); err != nil {
					errs <- fmt.Errorf("reader %d: %w", i, err)
					return
				}
				if ev.Method == model.MethodItemCompleted && ev.Item.Kind == model.KindAgentMessage {
					if n := len(itemsOfKind(st, model.KindAgentMessage)); n%floodWave == 0 {
						waves <- n / floodWave
					}
				}
				if ev.Method == model.MethodTurnCompleted && ev.TurnID == turn {
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(waves)
	for err := range errs {
		t.Fatal(err)
	}
	snap, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	for i, st := range states {
		if string(st.Encode()) != string(snap.Encode()) {
			t.Fatalf("reader %d's fold != snapshot", i)
		}
		if n := len(itemsOfKind(st, model.KindAgentMessage)); n != floodCount {
			t.Fatalf("reader %d holds %d messages", i, n)
		}
	}
	// The client that never read was cut off rather than allowed to hold
	// the session back: draining it now ends in a closed connection (1013,
	// or an abrupt close when even the close frame could not be written).
	if err := stalled.SetReadDeadline(time.Now().Add(hosttest.Timeout)); err != nil {
		t.Fatal(err)
	}
	for {
		if _, _, err := stalled.ReadMessage(); err != nil {
			var ne net.Error
			if ok := asNetErr(err, &ne); ok && ne.Timeout() {
				t.Fatal("the stalled client was never disconnected")
			}
			t.Logf("stalled client: %v", err)
			break
		}
	}
}

func asNetErr(err error, out *net.Error) bool {
	var ne net.Error
	ok := errors.As(err, &ne)
	if ok {
		*out = ne
	}
	return ok
}
