package sync

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/model"
)

// hostileHost is a WebSocket host that answers initialize and subscribe
// like a real one (an empty session "S") and then sends whatever frames a
// test gives it, on every connection the client makes.
type hostileHost struct {
	srv    *httptest.Server
	frames chan []byte
	sent   chan struct{}
}

func newHostileHost(t testing.TB) *hostileHost {
	h := &hostileHost{frames: make(chan []byte), sent: make(chan struct{})}
	up := websocket.Upgrader{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		var wmu gosync.Mutex // one writer at a time on the socket
		write := func(b []byte) {
			wmu.Lock()
			defer wmu.Unlock()
			ws.WriteMessage(websocket.TextMessage, b)
		}
		done := make(chan struct{})
		defer close(done)
		go func() { // the hostile frames, on whichever connection is open
			for {
				select {
				case <-done:
					return
				case f := <-h.frames:
					write(f)
					h.sent <- struct{}{}
				}
			}
		}()
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(data, &req) != nil || len(req.ID) == 0 {
				continue
			}
			var result string
			switch req.Method {
			case "initialize":
				result = `{"serverInfo":{"name":"hostile","version":"0"},"protocolVersion":1,"durability":"durable","features":{}}`
			case "session/subscribe":
				result = `{"epoch":"e1","head":"v:S:0","delivery":"snapshot","snapshot":{"cursor":"v:S:0","durableCursor":"v:S:0","items":[],"hasOlder":false,"activeTurn":null,"queuedTurns":[],"pendingApprovals":[],"state":{}}}`
			case "session/unsubscribe":
				result = `{}`
			}
			if result == "" {
				write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"not here"}}`))
				continue
			}
			write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`))
		}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// FuzzClientFrames feeds a running sync client newline-separated frames
// from a hostile host, after a normal initialize and subscribe. Whatever
// the frames: the client does not panic, keeps answering (Inspect), and
// its fold stays one a snapshot can carry (it re-encodes and loads back to
// the same bytes).
func FuzzClientFrames(f *testing.F) {
	h := newHostileHost(f)
	c := runScaledClient(f, Options{URL: "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/v1/ws", Token: "t",
		SessionID: "S", CacheDir: "-", Deltas: true}, 0.01)
	waitFor(f, c.Client, "live", isLive)
	n := func(method string, seq, prev int, rest string) string {
		p := `"sessionId":"S","viewCursor":"v:S:` + itoa(seq) + `"`
		if prev >= 0 {
			p += `,"prevCursor":` + map[bool]string{true: "null", false: `"v:S:` + itoa(prev) + `"`}[prev == 0]
		}
		if rest != "" {
			p += "," + rest
		}
		return `{"jsonrpc":"2.0","method":"` + method + `","params":{` + p + `}}`
	}
	f.Add(strings.Join([]string{
		n(model.MethodItemStarted, 1, 0, `"item":{"itemId":"m","kind":"agentMessage","turnId":"t","revision":1,"status":"inProgress","position":1,"text":""}`),
		n(model.MethodItemDelta, 2, -1, `"itemId":"m","delta":"hi"`),
		n(model.MethodItemCompleted, 3, 1, `"item":{"itemId":"m","kind":"agentMessage","turnId":"t","revision":2,"status":"completed","position":1,"text":"hi"}`),
	}, "\n"))
	f.Add(n(model.MethodItemCompleted, 9, 7, `"item":{"itemId":"g","kind":"x","revision":1,"status":"completed","position":9}`))
	f.Add(`{"jsonrpc":"2.0","id":99,"result":{}}` + "\n" + `not json` + "\n" + `{"jsonrpc":"2.0","method":"heartbeat"}`)
	f.Add(n(model.MethodApprovalRequested, 4, 3, `"approvalId":"a","turnId":"t","itemId":"m","summary":"x\u001b]52;c;eA==\u0007","options":["approve"]`))
	f.Add(n(model.MethodSessionState, 1, 0, `"title":"\u009b31m"`) + "\n" + n(model.MethodTurnStarted, 1, 0, `"turnId":"t","startedAt":"x"`))
	f.Fuzz(func(t *testing.T, data string) {
		for i, frame := range strings.Split(data, "\n") {
			if i == 64 {
				break
			}
			select {
			case h.frames <- []byte(frame):
				<-h.sent
			case <-time.After(10 * time.Second):
				t.Fatal("the client never reconnected to take the next frame")
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var enc []byte
		var snap model.Snapshot
		err := c.Inspect(ctx, func(st *model.State) {
			enc = st.Encode()
			snap = st.Snapshot(0)
		})
		if err != nil {
			t.Fatalf("the client stopped answering after %q: %v", data, err)
		}
		again := model.NewState("S")
		if _, err := again.LoadSnapshot("S", "e1", snap); err != nil {
			t.Fatalf("the client's fold does not load back from its own snapshot: %v", err)
		}
		if !bytes.Equal(again.Encode(), enc) {
			t.Fatalf("the client's fold changes through its own snapshot:\n%s\n%s", enc, again.Encode())
		}
	})
}
