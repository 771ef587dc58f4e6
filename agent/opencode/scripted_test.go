package opencode_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/opencode"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// scriptedServer is a stand-in OpenCode server: it answers the requests a
// turn makes and, on a prompt, streams script on its event stream. It
// checks the bridge's basic auth.
func scriptedServer(t *testing.T, script []string) *httptest.Server {
	prompts := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "opencode" || p != "pw" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		switch {
		case r.URL.Path == "/global/event":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"payload\":{\"type\":\"server.connected\",\"properties\":{}}}\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-prompts:
			case <-r.Context().Done():
				return
			}
			for _, line := range script {
				if line == pause {
					time.Sleep(200 * time.Millisecond)
					continue
				}
				fmt.Fprintf(w, "data: %s\n\n", line)
				w.(http.Flusher).Flush()
			}
			<-r.Context().Done()
		case r.URL.Path == "/session" && r.Method == "POST":
			fmt.Fprintf(w, `{"id":"ses_1","directory":%q,"title":"New session - 2026-01-01T00:00:00.000Z"}`, r.URL.Query().Get("directory"))
		case r.URL.Path == "/session/ses_1/prompt_async":
			w.WriteHeader(http.StatusNoContent)
			prompts <- struct{}{}
		case r.URL.Path == "/session/status":
			fmt.Fprint(w, `{}`)
		case r.URL.Path == "/config/providers":
			fmt.Fprint(w, `{"providers":[]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pause in a script waits a moment before the next event.
const pause = "PAUSE"

func ev(typ, props string) string {
	return fmt.Sprintf(`{"directory":"/w","payload":{"type":%q,"properties":%s}}`, typ, props)
}

func TestMalformedOpenCodeOutputIsAWarning(t *testing.T) {
	srv := scriptedServer(t, []string{
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_1","role":"user","sessionID":"ses_1"}}`),
		ev("session.status", `{"sessionID":"ses_1","status":{"type":"busy"}}`),
		`this is not JSON`,
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_2","role":"assistant","parentID":"msg_1","sessionID":"ses_1"}}`),
		ev("message.part.updated", `{"sessionID":"ses_1","part":{"id":"prt_bad","sessionID":"ses_1","type":"text"}}`),
		ev("message.part.updated", `{"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_2","type":"text","text":"","time":{"start":1}}}`),
		ev("message.part.delta", `{"sessionID":"ses_1","messageID":"msg_2","partID":"prt_1","field":"text","delta":"still "}`),
		ev("message.part.delta", `{"sessionID":"ses_1","messageID":"msg_2","partID":"prt_1","field":"text","delta":"fine"}`),
		ev("message.part.updated", `{"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_2","type":"text","text":"still fine","time":{"start":1,"end":2}}}`),
		ev("session.idle", `{"sessionID":"ses_1"}`),
	})
	ev, seen, st := runScripted(t, srv)
	if ev.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s %+v", ev.Status, ev.TurnError)
	}
	warnings := 0
	for _, e := range seen {
		if e.Method == model.MethodWarning && e.Warning.Code == "malformedAgentOutput" {
			warnings++
		}
	}
	if warnings != 2 {
		t.Errorf("%d malformedAgentOutput warnings, want 2 (the line that is not JSON, the part without a message)", warnings)
	}
	var answer string
	for _, it := range st.Items() {
		if it.Kind == model.KindAgentMessage {
			answer = it.Text()
		}
	}
	if answer != "still fine" {
		t.Errorf("answer %q, want the well-formed part still shown", answer)
	}
	if strings.Contains(string(st.Value("title")), "New session") {
		t.Errorf("OpenCode's placeholder title became the session's: %s", st.Value("title"))
	}
}

// runScripted runs one turn on a bridge attached to srv and returns its
// turn/completed, the events seen and the folded session.
func runScripted(t *testing.T, srv *httptest.Server) (*model.Event, []*model.Event, *model.State) {
	t.Helper()
	a := opencode.New(opencode.Options{URL: srv.URL, Password: "pw", Cwd: t.TempDir()})
	h := hosttest.Start(t, host.Options{DataDir: t.TempDir(), Agent: "opencode", AgentImpl: a})
	c := hosttest.Dial(t, h)
	var out struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{}, &out)
	sub, err := c.Subscribe(out.SessionID, "", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(out.SessionID)
	if _, err := st.LoadSnapshot(out.SessionID, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	_, turn, err := c.Submit(out.SessionID, "c1", "hello")
	if err != nil {
		t.Fatal(err)
	}
	ev, seen, err := c.WaitEvent(st, hosttest.TurnCompleted(turn))
	if err != nil {
		t.Fatal(err)
	}
	return ev, seen, st
}

func TestALateIdleDoesNotEndTheTurn(t *testing.T) {
	srv := scriptedServer(t, []string{
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_1","role":"user","sessionID":"ses_1"}}`),
		ev("session.idle", `{"sessionID":"ses_1"}`), // the previous turn's
		ev("session.status", `{"sessionID":"ses_1","status":{"type":"busy"}}`),
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_2","role":"assistant","parentID":"msg_1","sessionID":"ses_1"}}`),
		ev("message.part.updated", `{"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_2","type":"text","text":"the answer","time":{"start":1,"end":2}}}`),
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_2","role":"assistant","parentID":"msg_1","sessionID":"ses_1","time":{"completed":3}}}`),
		ev("session.idle", `{"sessionID":"ses_1"}`),
	})
	done, _, st := runScripted(t, srv)
	if done.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s %+v", done.Status, done.TurnError)
	}
	var answer string
	for _, it := range st.Items() {
		if it.Kind == model.KindAgentMessage {
			answer = it.Text()
		}
	}
	if answer != "the answer" {
		t.Errorf("answer %q: the late idle ended the turn early", answer)
	}
}

func TestAPromptOpenCodeNeverStartsFailsTheTurn(t *testing.T) {
	defer opencode.SetStartCheckDelay(50 * time.Millisecond)()
	srv := scriptedServer(t, []string{
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_1","role":"user","sessionID":"ses_1"}}`),
		ev("session.idle", `{"sessionID":"ses_1"}`),
	})
	done, _, _ := runScripted(t, srv)
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "agentError" || !strings.Contains(done.TurnError.Message, "did not start") {
		t.Fatalf("turn ended %s %+v, want failed agentError", done.Status, done.TurnError)
	}
}

func TestAPermissionAnsweredElsewhereIsWithdrawn(t *testing.T) {
	srv := scriptedServer(t, []string{
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_1","role":"user","sessionID":"ses_1"}}`),
		ev("session.status", `{"sessionID":"ses_1","status":{"type":"busy"}}`),
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_2","role":"assistant","parentID":"msg_1","sessionID":"ses_1"}}`),
		ev("message.part.updated", `{"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_2","type":"tool","tool":"bash","callID":"c1","state":{"status":"running","input":{"command":"ls"}}}}`),
		ev("permission.asked", `{"id":"per_1","sessionID":"ses_1","permission":"bash","patterns":["ls"],"metadata":{"command":"ls"},"always":["ls *"],"tool":{"messageID":"msg_2","callID":"c1"}}`),
		pause, // the approval is put to the user
		ev("permission.replied", `{"sessionID":"ses_1","requestID":"per_1","reply":"once"}`),
		ev("message.part.updated", `{"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_2","type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"ls"},"output":"a\n","metadata":{"output":"a\n","exit":0}}}}`),
		ev("message.updated", `{"sessionID":"ses_1","info":{"id":"msg_2","role":"assistant","parentID":"msg_1","sessionID":"ses_1","time":{"completed":3}}}`),
		ev("session.idle", `{"sessionID":"ses_1"}`),
	})
	done, seen, st := runScripted(t, srv)
	if done.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s %+v", done.Status, done.TurnError)
	}
	var resolved string
	for _, e := range seen {
		if e.Method == model.MethodApprovalResolved {
			resolved = e.Decision
		}
	}
	if resolved != "cancelled" {
		t.Errorf("the approval answered in OpenCode resolved %q, want cancelled", resolved)
	}
	for _, it := range st.Items() {
		if it.Kind == model.KindToolCall && (it.Status != model.StatusCompleted || it.Output() != "a\n") {
			t.Errorf("tool %s %q", it.Status, it.Output())
		}
	}
}
