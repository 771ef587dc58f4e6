package host_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	gosync "sync"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// lockedBuffer is a log sink safe for the host's goroutines.
type lockedBuffer struct {
	mu gosync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Contains(l.b.Bytes(), []byte(s))
}

// FuzzHostRequests sends arbitrary frames to a real host over one
// WebSocket, seeded with a valid request of every method. Whatever the
// frame: no handler panics (the host would log it), the connection stays
// open, every answer is a JSON-RPC response, and the host still answers
// the next request.
func FuzzHostRequests(f *testing.F) {
	logs := &lockedBuffer{}
	// InvalidFrames: no limit, or the fuzzer's flood of invalid frames
	// would close its one connection (TestInvalidFrameFloodClosesTheFlooder).
	h := hosttest.Start(f, host.Options{Ephemeral: true, InvalidFrames: -1, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	c := hosttest.Dial(f, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(f, "session/create", map[string]any{"title": "fuzz"}, &created)
	sid := created.SessionID
	req := func(method string, params any) []byte {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
		return b
	}
	for _, seed := range [][]byte{
		req("initialize", map[string]any{"clientInfo": map[string]string{"name": "x", "version": "1"}, "capabilities": map[string]bool{"deltas": true}}),
		req("session/list", map[string]any{}),
		req("session/create", map[string]any{"title": "t"}),
		req("session/subscribe", map[string]any{"sessionId": sid, "cursor": "v:" + sid + ":3", "epoch": "e", "limit": 5}),
		req("session/unsubscribe", map[string]any{"sessionId": sid}),
		req("view/page", map[string]any{"sessionId": sid, "epoch": "x", "direction": "before", "cursor": "v:" + sid + ":9", "limit": 2}),
		req("turn/submit", map[string]any{"sessionId": sid, "commandId": "0198f0ad-0000-7000-8000-000000000001", "text": "hello"}),
		req("command/replay", map[string]any{"sessionId": sid, "commandId": "c"}),
		req("turn/unqueue", map[string]any{"sessionId": sid, "commandId": "c"}),
		req("turn/interrupt", map[string]any{"sessionId": sid, "turnId": "t"}),
		req("approval/respond", map[string]any{"sessionId": sid, "approvalId": "a", "decision": "approveForSession"}),
		[]byte(`{"jsonrpc":"2.0","id":"\xff\xfe","method":"nope"}`),
		[]byte(`[{"jsonrpc":"2.0","id":1,"method":"session/list"}]`),
		[]byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"session/list","params":[]}`),
		[]byte(`{"jsonrpc":"2.0","result":{},"id":3}`),
	} {
		f.Add(seed)
	}
	n := 0
	f.Fuzz(func(t *testing.T, frame []byte) {
		if len(frame) > 1<<20 {
			return
		}
		if err := c.Send(frame); err != nil {
			t.Fatalf("send: %v", err)
		}
		// The host answers the next request (with an id the fuzzer cannot
		// take): it survived the frame.
		n++
		sentinel := fmt.Sprintf(`"sentinel-%d"`, n)
		if err := c.Send([]byte(`{"jsonrpc":"2.0","id":` + sentinel + `,"method":"session/list","params":{}}`)); err != nil {
			t.Fatalf("send: %v", err)
		}
		for {
			fr, err := c.Next()
			if err != nil {
				t.Fatalf("after %q: %v", frame, err)
			}
			if fr.Method == "" && fr.Result == nil && fr.Error == nil {
				t.Fatalf("after %q the host sent a frame that is neither a response nor a notification", frame)
			}
			if string(fr.ID) == sentinel {
				if fr.Error != nil {
					t.Fatalf("session/list after %q: %v", frame, fr.Error)
				}
				break
			}
		}
		if logs.contains("panicked") {
			t.Fatalf("a handler panicked on %q", frame)
		}
		select {
		case <-c.Done():
			t.Fatalf("the host closed the connection after %q: %v", frame, c.CloseErr())
		default:
		}
	})
}
