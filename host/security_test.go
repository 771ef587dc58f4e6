package host_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

func TestUpgradeNeedsTokenAndSameOrigin(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	cases := []struct {
		name   string
		url    string
		header http.Header
		status int
	}{
		{"no token", h.URL(), nil, http.StatusUnauthorized},
		{"wrong token", h.URL(), http.Header{"Authorization": {"Bearer " + strings.Repeat("0", 64)}}, http.StatusUnauthorized},
		{"wrong scheme", h.URL(), http.Header{"Authorization": {"Basic " + h.Token()}}, http.StatusUnauthorized},
		{"wrong query token", h.URL() + "?token=nope", nil, http.StatusUnauthorized},
		{"foreign origin", h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}, "Origin": {"http://evil.example:80"}}, http.StatusForbidden},
		{"origin on another port", h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}, "Origin": {"http://127.0.0.1:1"}}, http.StatusForbidden},
		{"header token", h.URL(), http.Header{"Authorization": {"Bearer " + h.Token()}}, 0},
		{"query token", h.URL() + "?token=" + h.Token(), nil, 0},
		{"same origin, any case", h.URL(), http.Header{"Authorization": {"bearer " + h.Token()}, "Origin": {"HTTP://" + strings.ToUpper(h.Addr())}}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, resp, err := hosttest.DialURL(tc.url, tc.header)
			if tc.status == 0 {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				defer c.Close()
				if _, rerr, err := c.Call("session/list", nil); err != nil || rerr != nil {
					t.Fatalf("session/list: %v %v", rerr, err)
				}
				return
			}
			if err == nil {
				c.Close()
				t.Fatal("upgrade accepted")
			}
			if resp == nil || resp.StatusCode != tc.status {
				t.Fatalf("got %v (%v), want HTTP %d", resp, err, tc.status)
			}
		})
	}
}

func TestNoAuthOnlyOnLoopback(t *testing.T) {
	if _, err := host.Start(context.Background(), host.Options{Addr: "0.0.0.0:0", NoAuth: true, Ephemeral: true}); err == nil {
		t.Fatal("--no-auth accepted on a non-loopback address")
	}
	if _, err := host.Start(context.Background(), host.Options{Addr: ":0", NoAuth: true, Ephemeral: true}); err == nil {
		t.Fatal("--no-auth accepted on every interface")
	}
	h := hosttest.Start(t, host.Options{NoAuth: true, Ephemeral: true})
	// DNS rebinding: Origin and Host agree, but name a foreign site.
	_, port, _ := strings.Cut(h.Addr(), ":")
	rebound := http.Header{"Host": {"evil.example:" + port}, "Origin": {"http://evil.example:" + port}}
	if _, resp, err := hosttest.DialURL(h.URL(), rebound); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rebound name reached a no-auth host: %v %v", resp, err)
	}
	c, _, err := hosttest.DialURL(h.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, rerr, err := c.Call("session/list", nil); err != nil || rerr != nil {
		t.Fatal(rerr, err)
	}
}

func TestTokenFileIsPrivateAndStable(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	fi, err := os.Stat(host.TokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(host.TokenPath(dir))
	// The file is the token byte for byte (no newline), so a script can
	// send it as read.
	if tok := string(b); tok != h.Token() || len(tok) != 64 {
		t.Fatalf("token file %q, host token %q", tok, h.Token())
	}
	first := h.Token()
	h.Close()
	h2 := hosttest.Start(t, host.Options{DataDir: dir})
	if h2.Token() != first {
		t.Fatal("token changed across restarts")
	}
	// A second host on the same data directory is refused.
	if _, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: dir}); err == nil {
		t.Fatal("two hosts share one journal")
	}
	// An ephemeral host without a data directory writes nothing.
	e := hosttest.Start(t, host.Options{Ephemeral: true})
	if e.DataDir() != "" || len(e.Token()) != 64 {
		t.Fatalf("ephemeral host: dir %q token %q", e.DataDir(), e.Token())
	}
}

func TestMalformedRequestsGetErrorsAndLoseNothing(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	bystander := hosttest.Dial(t, h)
	sid, epoch, st := newSession(t, c)
	if _, err := bystander.Subscribe(sid, "", "", 0); err != nil {
		t.Fatal(err)
	}
	runTurn(t, c, sid, st, "a", "compact and unknown kind")
	before := pageAll(t, c, sid, epoch, 50)

	// Frames that are not valid requests.
	raw := []struct {
		frame string
		code  int
		id    string
	}{
		{`this is not json`, model.CodeParseError, "null"},
		{`{"jsonrpc":"2.0","id":1,"method":"session/list"`, model.CodeParseError, "null"},
		{`[{"jsonrpc":"2.0","id":2,"method":"session/list"}]`, model.CodeInvalidRequest, "null"},
		{`"just a string"`, model.CodeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":3}`, model.CodeInvalidRequest, "3"},
		{`{"jsonrpc":"1.0","id":4,"method":"session/list"}`, model.CodeInvalidRequest, "4"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"session/list"}`, model.CodeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":"five","method":7}`, model.CodeInvalidRequest, `"five"`},
		{`{"jsonrpc":"2.0","id":6,"method":"no/such/method"}`, model.CodeMethodNotFound, "6"},
		{`{"jsonrpc":"2.0","id":7,"method":"session/subscribe","params":[1,2]}`, model.CodeInvalidParams, "7"},
		{`{"jsonrpc":"2.0","id":8,"method":"session/subscribe","params":{"sessionId":42}}`, model.CodeInvalidParams, "8"},
		{`{"jsonrpc":"2.0","id":9,"method":"turn/submit","params":{"sessionId":"` + sid + `","text":"no command id"}}`, model.CodeInvalidParams, "9"},
		{`{"jsonrpc":"2.0","id":10,"method":"view/page","params":{"sessionId":"` + sid + `","direction":"sideways"}}`, model.CodeInvalidParams, "10"},
		{`{"jsonrpc":"2.0","id":11,"method":"view/page","params":{"sessionId":"` + sid + `","direction":"after","limit":"many"}}`, model.CodeInvalidParams, "11"},
		{`{"jsonrpc":"2.0","id":12,"method":"view/page","params":{"sessionId":"` + sid + `","direction":"after","cursor":"v:other:3"}}`, model.CodeInvalidParams, "12"},
		{`{"jsonrpc":"2.0","id":13,"method":"initialize","params":{"capabilities":{"deltas":"yes"}}}`, model.CodeInvalidParams, "13"},
		{`{"jsonrpc":"2.0","id":14,"method":"session/subscribe","params":{"sessionId":"` + sid + `","cursor":"garbage"}}`, model.CodeInvalidParams, "14"},
		{`{"jsonrpc":"2.0","id":15,"method":"view/page","params":{"sessionId":"` + sid + `","direction":"after","limit":0}}`, model.CodeInvalidParams, "15"},
	}
	for _, r := range raw {
		if err := c.Send([]byte(r.frame)); err != nil {
			t.Fatal(err)
		}
		f, err := c.Next()
		if err != nil {
			t.Fatalf("%s: %v", r.frame, err)
		}
		if f.Error == nil || f.Error.Code != r.code || string(f.ID) != r.id {
			t.Fatalf("%s: answered id %s error %+v, want %d with id %s", r.frame, f.ID, f.Error, r.code, r.id)
		}
	}
	// A binary frame, a client notification and a client response need no
	// answer beyond the binary frame's error.
	if err := c.Conn().WriteMessage(websocket.BinaryMessage, []byte(`{"jsonrpc":"2.0","id":99,"method":"session/list"}`)); err != nil {
		t.Fatal(err)
	}
	if f, err := c.Next(); err != nil || f.Error == nil || f.Error.Code != model.CodeInvalidRequest {
		t.Fatalf("binary frame: %+v %v", f, err)
	}
	for _, frame := range []string{`{"jsonrpc":"2.0","method":"session/list"}`, `{"jsonrpc":"2.0","id":100,"result":{}}`} {
		if err := c.Send([]byte(frame)); err != nil {
			t.Fatal(err)
		}
	}

	// Unknown sessions, for every session method.
	for _, m := range []string{"session/subscribe", "session/unsubscribe", "view/page", "turn/submit", "command/replay", "turn/unqueue", "turn/interrupt", "approval/respond"} {
		p := map[string]any{"sessionId": "no-such-session", "direction": "after", "commandId": "c", "text": "t", "turnId": "t", "approvalId": "a", "decision": "approve"}
		if e := rpcCode(t, c, m, p); e == nil || e.Code != model.CodeUnknownSession {
			t.Fatalf("%s on an unknown session: %+v", m, e)
		}
	}
	// A stale epoch.
	e := rpcCode(t, c, "view/page", map[string]any{"sessionId": sid, "epoch": "stale", "direction": "after"})
	var data struct{ Epoch string }
	if e == nil || e.Code != model.CodeStaleCursor || json.Unmarshal(e.Data, &data) != nil || data.Epoch != epoch {
		t.Fatalf("stale epoch: %+v", e)
	}
	if e := rpcCode(t, c, "view/page", map[string]any{"sessionId": sid, "epoch": epoch, "direction": "after", "cursor": model.FormatCursor(sid, 1<<40)}); e == nil || e.Code != model.CodeStaleCursor {
		t.Fatalf("cursor beyond the head: %+v", e)
	}
	if n := c.Pending(); n != 0 {
		t.Fatalf("%d unexpected frames", n)
	}

	// A frame over 4 MiB closes that connection with 1009, and only it.
	big := `{"jsonrpc":"2.0","id":1,"method":"turn/submit","params":{"text":"` + strings.Repeat("x", host.MaxFrameBytes) + `"}}`
	_ = c.Send([]byte(big)) // the host may close before the frame is all written
	<-c.Done()
	if c.CloseCode() != websocket.CloseMessageTooBig {
		t.Fatalf("huge frame: close %d (%v)", c.CloseCode(), c.CloseErr())
	}

	// Nothing was lost, and everyone else carries on.
	fresh := hosttest.Dial(t, h)
	after := pageAll(t, fresh, sid, epoch, 50)
	if len(after) != len(before) {
		t.Fatalf("%d durable events before, %d after", len(before), len(after))
	}
	for i := range before {
		if string(before[i].Params) != string(after[i].Params) {
			t.Fatalf("event %d changed", i)
		}
	}
	if _, turn, err := bystander.Submit(sid, "b", "still here?"); err != nil {
		t.Fatal(err)
	} else if _, _, err := bystander.WaitEvent(nil, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
}
