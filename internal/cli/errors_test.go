package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/model"
)

// injector is a WebSocket proxy in front of a real host that passes every
// frame through and, right after the host answers session/subscribe, sends
// the client two frames it cannot fold: one that is not JSON at all, and
// a delta for an item that does not exist.
type injector struct {
	srv    *httptest.Server
	target string
}

func newInjector(t *testing.T, target string) *injector {
	t.Helper()
	in := &injector{target: target}
	up := websocket.Upgrader{}
	in.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := http.Header{}
		if a := r.Header.Get("Authorization"); a != "" {
			hdr.Set("Authorization", a)
		}
		host, resp, err := websocket.DefaultDialer.Dial(in.target, hdr)
		if err != nil {
			code := http.StatusBadGateway
			if resp != nil {
				code = resp.StatusCode
			}
			http.Error(w, "upstream", code)
			return
		}
		defer host.Close()
		client, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer client.Close()
		subscribes := make(chan string, 16)
		go func() {
			defer host.Close()
			for {
				mt, b, err := client.ReadMessage()
				if err != nil {
					return
				}
				var req struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				if json.Unmarshal(b, &req) == nil && req.Method == "session/subscribe" {
					subscribes <- string(req.ID)
				}
				if host.WriteMessage(mt, b) != nil {
					return
				}
			}
		}()
		pending := map[string]bool{}
		for {
			mt, b, err := host.ReadMessage()
			if err != nil {
				return
			}
			if client.WriteMessage(mt, b) != nil {
				return
			}
		drain:
			for {
				select {
				case id := <-subscribes:
					pending[id] = true
				default:
					break drain
				}
			}
			var res struct {
				ID     json.RawMessage `json:"id"`
				Result struct {
					Head string `json:"head"`
				} `json:"result"`
			}
			if json.Unmarshal(b, &res) != nil || !pending[string(res.ID)] || res.Result.Head == "" {
				continue
			}
			sid, seq, _ := model.ParseCursor(res.Result.Head)
			bad, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "item/delta", "params": map[string]any{
				"sessionId": sid, "viewCursor": model.FormatCursor(sid, seq+1), "itemId": "ghost-item", "field": "text", "delta": "boo"}})
			_ = client.WriteMessage(websocket.TextMessage, []byte("this frame is not JSON"))
			_ = client.WriteMessage(websocket.TextMessage, bad)
		}
	}))
	t.Cleanup(in.srv.Close)
	return in
}

func (in *injector) URL() string { return "ws" + strings.TrimPrefix(in.srv.URL, "http") + "/v1/ws" }

// watch, export and send report on stderr every error the client
// recorded (here: two frames it could not fold), as it happens, and still
// do their job.
func TestCLIReportsClientErrorsOnStderr(t *testing.T) {
	h := cliHost(t)
	p := newInjector(t, h.URL())
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()
	for _, args := range [][]string{
		{"watch", p.URL(), tok, "--session", sid, "--until-idle"},
		{"watch", p.URL(), tok, "--session", sid, "--until-idle", "--json"},
		{"export", p.URL(), tok, "--session", sid},
		{"send", p.URL(), tok, "--session", sid, "hello through a proxy"},
	} {
		t.Run(args[0], func(t *testing.T) {
			out, errText, code := runCLIErr(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errText)
			}
			if out == "" {
				t.Fatal("no output")
			}
			for _, want := range []string{"client error: upstream_frame_error: malformed frame: not valid JSON", "client error: unknown_item in item/delta", "ghost-item"} {
				if !strings.Contains(errText, want) {
					t.Fatalf("stderr does not report the frame with %q:\n%s", want, errText)
				}
			}
			if n := strings.Count(errText, "ghost-item"); n != 1 {
				t.Fatalf("the error is reported %d times:\n%s", n, errText)
			}
			if strings.Contains(out, "ghost-item") {
				t.Fatalf("the error went to stdout:\n%s", out)
			}
		})
	}
}

// send says why a turn failed to launch, in the host's words.
func TestSendLaunchFailureSaysWhy(t *testing.T) {
	h := cliHost(t)
	_, errText, code := runCLIErr(t, "send", h.URL(), "--token="+h.Token(), "--session", h.DefaultSessionID(), "launch fail now")
	if code != exitTurnFailed || !strings.Contains(errText, "the turn failed to launch: the demo agent was asked to fail its launch") {
		t.Fatalf("exit %d: %s", code, errText)
	}
}
