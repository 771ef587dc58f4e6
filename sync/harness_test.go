package sync

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// waitTimeout is generous: the tests wait on conditions, never on time,
// and 2 busy cores under -race can be slow.
const waitTimeout = 60 * time.Second

// startHost starts a real host on a loopback port (see hosttest.Start).
func startHost(t testing.TB, o host.Options) *host.Host { return hosttest.Start(t, o) }

// runClient creates and runs a client; it stops when the test ends.
type runningClient struct {
	*Client
	cancel context.CancelFunc
	done   chan struct{}
}

func (r *runningClient) Stop() {
	r.cancel()
	<-r.done
}

func runClient(t testing.TB, o Options) *runningClient { return runScaledClient(t, o, 1) }

// runScaledClient is runClient with the client's backoff waits multiplied
// by timeScale (the schedule of waits stays the product's).
func runScaledClient(t testing.TB, o Options, timeScale float64) *runningClient {
	t.Helper()
	if o.CacheDir == "" {
		o.CacheDir = "-"
	}
	c, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.loop.timeScale = timeScale
	ctx, cancel := context.WithCancel(context.Background())
	r := &runningClient{Client: c, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		_ = c.Run(ctx)
	}()
	t.Cleanup(r.Stop)
	return r
}

// waitFor waits until cond holds for the client's published snapshot.
func waitFor(t testing.TB, c *Client, what string, cond func(Picture) bool) Picture {
	t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		s := c.Current()
		if cond(s) {
			return s
		}
		select {
		case <-c.Updates():
		case <-deadline.C:
			s := c.Current()
			t.Fatalf("timed out waiting for %s; freshness %+v, items %d, pending %d, errors %v",
				what, s.Freshness, len(s.View.Items), len(s.View.Pending), s.Errors)
		}
	}
}

func isLive(s Picture) bool { return s.Freshness.State == Live }

func idle(s Picture) bool {
	return isLive(s) && s.View.ActiveTurn == nil && len(s.View.QueuedTurns) == 0 && len(s.View.Pending) == 0
}

// encode returns the client's canonical state.
func encode(t testing.TB, c *Client) []byte {
	t.Helper()
	var b []byte
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := c.Inspect(ctx, func(st *model.State) { b = st.Encode() }); err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	return b
}

// rawRPC is a minimal JSON-RPC peer used to ask the host for the truth
// without going through the client under test.
type rawRPC struct {
	t  testing.TB
	ws *websocket.Conn
	id int
}

func dialRaw(t testing.TB, url, token string) *rawRPC {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	ws, _, err := websocket.DefaultDialer.Dial(url, h)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	r := &rawRPC{t: t, ws: ws}
	r.call("initialize", map[string]any{"clientInfo": map[string]string{"name": "truth", "version": "1"},
		"capabilities": map[string]bool{"deltas": false}})
	return r
}

func (r *rawRPC) close() { r.ws.Close() }

// call sends a request and returns its result, skipping notifications.
func (r *rawRPC) call(method string, params any) json.RawMessage {
	r.t.Helper()
	res, rerr := r.try(method, params)
	if rerr != nil {
		r.t.Fatalf("%s: %d %s", method, rerr.Code, rerr.Message)
	}
	return res
}

func (r *rawRPC) try(method string, params any) (json.RawMessage, *model.RPCError) {
	r.t.Helper()
	r.id++
	if err := r.ws.WriteJSON(map[string]any{"jsonrpc": "2.0", "id": r.id, "method": method, "params": params}); err != nil {
		r.t.Fatalf("write %s: %v", method, err)
	}
	_ = r.ws.SetReadDeadline(time.Now().Add(waitTimeout))
	for {
		_, data, err := r.ws.ReadMessage()
		if err != nil {
			r.t.Fatalf("read %s: %v", method, err)
		}
		f, err := model.ParseFrame(data)
		if err != nil || f.Method != "" || string(f.ID) != fmt.Sprint(r.id) {
			continue
		}
		return f.Result, f.Error
	}
}

// truth is the host's own fold of a session: an unlimited-enough
// snapshot, loaded into a fresh state and canonically encoded.
func truth(t testing.TB, url, token, sid string) []byte {
	t.Helper()
	r := dialRaw(t, url, token)
	defer r.close()
	res := r.call("session/subscribe", map[string]any{"sessionId": sid, "limit": 1000})
	var sr subscribeResult
	if err := json.Unmarshal(res, &sr); err != nil || sr.Snapshot == nil {
		t.Fatalf("truth subscribe: %v %s", err, res)
	}
	st := model.NewState(sid)
	if _, err := st.LoadSnapshot(sid, sr.Epoch, *sr.Snapshot); err != nil {
		t.Fatalf("truth snapshot: %v", err)
	}
	return st.Encode()
}

// sameAsHost asserts that the client's fold equals the host's truth.
func sameAsHost(t testing.TB, c *Client, url, token, sid string) {
	t.Helper()
	got, want := encode(t, c), truth(t, url, token, sid)
	if !bytes.Equal(got, want) {
		t.Fatalf("client fold differs from the host's:\n got %s\nwant %s", clip(got), clip(want))
	}
}

func clip(b []byte) string {
	if len(b) > 3000 {
		return string(b[:1500]) + " ... " + string(b[len(b)-1500:])
	}
	return string(b)
}

// checkTranscript asserts the invariants of a settled transcript: no item
// twice, no userMessage twice for one commandId (no prompt ran twice), and
// no pending entry left.
func checkTranscript(t testing.TB, v *model.View) {
	t.Helper()
	seen := map[string]bool{}
	cmds := map[string]int{}
	for _, it := range v.Items {
		if seen[it.ID] {
			t.Fatalf("item %s appears twice", it.ID)
		}
		seen[it.ID] = true
		if it.Kind == model.KindUserMessage {
			cmds[it.CommandID()]++
		}
	}
	for cid, n := range cmds {
		if n > 1 {
			t.Fatalf("prompt %s ran %d times", cid, n)
		}
	}
	if len(v.Pending) != 0 {
		t.Fatalf("ghost pending entries: %+v", v.Pending)
	}
}

// userMessages counts the userMessage items per commandId.
func userMessages(v *model.View) map[string]int {
	m := map[string]int{}
	for _, it := range v.Items {
		if it.Kind == model.KindUserMessage {
			m[it.CommandID()]++
		}
	}
	return m
}

// createSession creates a session through the protocol.
func createSession(t testing.TB, url, token, title string) string {
	t.Helper()
	r := dialRaw(t, url, token)
	defer r.close()
	var out struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(r.call("session/create", map[string]any{"title": title}), &out); err != nil || out.SessionID == "" {
		t.Fatalf("session/create: %v", err)
	}
	return out.SessionID
}

func hasErr(s Picture, sub string) bool {
	for _, e := range s.Errors {
		if strings.Contains(e, sub) {
			return true
		}
	}
	return false
}
