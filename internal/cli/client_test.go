package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// runCLI runs the lookout command line in-process and returns stdout and
// the exit code main would use.
func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	code := 0
	if err != nil {
		code = exitCode(err)
		t.Logf("lookout %s: exit %d: %v", strings.Join(args, " "), code, err)
	}
	return out.String(), code
}

func cliHost(t *testing.T) *host.Host {
	t.Helper()
	h, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), DemoSession: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func TestCLISendExportWatchSessions(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()

	out, code := runCLI(t, "sessions", h.Addr(), tok, "--json")
	var ss []struct {
		SessionID string `json:"sessionId"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &ss) != nil || len(ss) != 1 || ss[0].SessionID != sid {
		t.Fatalf("sessions --json: exit %d, %q", code, out)
	}
	if out, code = runCLI(t, "sessions", "http://"+h.Addr(), tok); code != 0 || !strings.Contains(out, sid) || !strings.HasPrefix(out, "SESSION") {
		t.Fatalf("sessions: exit %d, %q", code, out)
	}

	out, code = runCLI(t, "send", h.URL(), "--session", sid, tok, "Say hello from the CLI")
	if code != 0 || !strings.Contains(out, "Say hello from the CLI") {
		t.Fatalf("send: exit %d, %q", code, out)
	}

	out, code = runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "json", "--until-idle")
	var st struct {
		Items []struct {
			Kind string `json:"kind"`
			Text string `json:"text"`
		} `json:"items"`
		Cursor string `json:"cursor"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Items) == 0 {
		t.Fatalf("export json: exit %d, %q", code, out)
	}
	found := false
	for _, it := range st.Items {
		found = found || (it.Kind == model.KindUserMessage && it.Text == "Say hello from the CLI")
	}
	if !found {
		t.Fatal("export lacks the prompt sent")
	}

	md, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown")
	if code != 0 || !strings.Contains(md, "## User\n\nSay hello from the CLI") || !strings.Contains(md, "## Agent") {
		t.Fatalf("export markdown: exit %d, %q", code, md)
	}

	out, code = runCLI(t, "watch", h.URL(), "--session", sid, tok, "--json", "--until-idle")
	if code != 0 {
		t.Fatalf("watch: exit %d", code)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 8<<20)
	lines, last := 0, int64(0)
	for sc.Scan() {
		var el struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&el); err != nil {
			t.Fatalf("watch line %d is not {method, params}: %v: %s", lines+1, err, sc.Bytes())
		}
		ev, err := model.DecodeNotification(el.Method, el.Params)
		if err != nil || ev.Seq <= last {
			t.Fatalf("watch line %d: %v, seq %d after %d", lines+1, err, ev.Seq, last)
		}
		last = ev.Seq
		lines++
	}
	// The last event folded is the session's head: a fresh export agrees.
	if _, headSeq, _ := model.ParseCursor(st.Cursor); lines == 0 || last != headSeq {
		t.Fatalf("watch printed %d lines up to seq %d; export's head is %s", lines, last, st.Cursor)
	}
}

func TestCLIExitCodes(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"usage: bad format", []string{"export", h.URL(), tok, "--format", "xml"}, exitUsage},
		{"usage: unknown flag", []string{"watch", h.URL(), "--nope"}, exitUsage},
		{"usage: too many args", []string{"sessions", h.URL(), "extra"}, exitUsage},
		{"usage: send without text", []string{"send"}, exitUsage},
		{"auth", []string{"sessions", h.URL(), "--token=wrong"}, exitAuth},
		{"auth on export", []string{"export", h.URL(), "--token=wrong", "--session", sid}, exitAuth},
		{"unknown session", []string{"export", h.URL(), tok, "--session", "no-such-session"}, exitNoSession},
		{"unreachable", []string{"watch", closed, tok, "--until-idle"}, exitUnreachable},
		{"unreachable sessions", []string{"sessions", closed, tok}, exitUnreachable},
		{"unreachable attach", []string{"attach", closed, tok}, exitUnreachable},
		{"attach without URL or running host", []string{"attach", "--data", t.TempDir()}, exitUsage},
		{"auth on attach", []string{"attach", h.URL(), "--token=wrong"}, exitAuth},
		{"turn failed", []string{"send", h.URL(), tok, "--session", sid, "fail turn, please"}, exitTurnFailed},
		{"launch failed", []string{"send", h.URL(), tok, "--session", sid, "launch fail now"}, exitTurnFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, code := runCLI(t, c.args...); code != c.want {
				t.Fatalf("exit %d, want %d", code, c.want)
			}
		})
	}
}

func TestCLITokenFromEnvAndFile(t *testing.T) {
	h := cliHost(t)
	t.Setenv("LOOKOUT_TOKEN", h.Token())
	if _, code := runCLI(t, "sessions", h.Addr()); code != 0 {
		t.Fatalf("token from the environment: exit %d", code)
	}
	t.Setenv("LOOKOUT_TOKEN", "")
	if _, code := runCLI(t, "sessions", h.Addr(), "--token-file", host.TokenPath(h.DataDir())); code != 0 {
		t.Fatalf("token from the host's token file: exit %d", code)
	}
}

// send answers a tool approval itself with --on-approval, and says on
// stderr what it answered.
func TestCLISendAnswersApprovals(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	for _, c := range []struct {
		decision string
		code     int
		status   string
	}{{"approve", 0, model.StatusCompleted}, {"deny", 0, model.StatusFailed}} {
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs([]string{"send", h.URL(), "--session", sid, "--token", h.Token(), "--on-approval", c.decision, "please use a tool"})
		err := root.ExecuteContext(context.Background())
		if code := exitCode(err); err != nil && code != c.code {
			t.Fatalf("%s: exit %d: %v", c.decision, code, err)
		}
		if !strings.Contains(errOut.String(), map[string]string{"approve": "approving", "deny": "denying"}[c.decision]+" approval") {
			t.Fatalf("%s: stderr %q", c.decision, errOut.String())
		}
		exported, code := runCLI(t, "export", h.URL(), "--session", sid, "--token", h.Token(), "--format", "json", "--until-idle")
		if code != 0 {
			t.Fatalf("export exit %d", code)
		}
		var st struct {
			Items []struct {
				Kind   string `json:"kind"`
				Status string `json:"status"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(exported), &st); err != nil {
			t.Fatal(err)
		}
		last := ""
		for _, it := range st.Items {
			if it.Kind == model.KindToolCall {
				last = it.Status
			}
		}
		if last != c.status {
			t.Fatalf("%s: last tool call is %q, want %q", c.decision, last, c.status)
		}
	}
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, "--token", h.Token(), "--on-approval", "maybe", "x"); code != exitUsage {
		t.Fatalf("bad --on-approval: exit %d", code)
	}
}

// send --on-approval deny --reason tells the agent the reason: the demo
// agent's denied tool quotes it.
func TestCLISendDenyReason(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	const reason = "use make test instead"
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, "--token", h.Token(), "--on-approval", "deny", "--reason", reason, "please use a tool"); code != 0 {
		t.Fatalf("send exit %d", code)
	}
	exported, code := runCLI(t, "export", h.URL(), "--session", sid, "--token", h.Token(), "--format", "json", "--until-idle")
	if code != 0 {
		t.Fatalf("export exit %d", code)
	}
	var st struct {
		Items []struct {
			Kind  string `json:"kind"`
			Error string `json:"error"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(exported), &st); err != nil {
		t.Fatal(err)
	}
	last := ""
	for _, it := range st.Items {
		if it.Kind == model.KindToolCall {
			last = it.Error
		}
	}
	if !strings.HasSuffix(last, ": "+reason) {
		t.Fatalf("the denied tool's error is %q, want it to quote %q", last, reason)
	}
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, "--token", h.Token(), "--on-approval", "approve", "--reason", reason, "x"); code != exitUsage {
		t.Fatalf("--reason with approve: exit %d, want usage", code)
	}
}

// dialSessions creates a session on the host at url and returns its id.
func dialSessions(t *testing.T, url, token string) string {
	t.Helper()
	h := http.Header{"Authorization": {"Bearer " + token}}
	ws, _, err := websocket.DefaultDialer.Dial(url, h)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteJSON(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "session/create", "params": map[string]string{"title": "kill9"}}); err != nil {
		t.Fatal(err)
	}
	for {
		var f struct {
			ID     int `json:"id"`
			Result struct {
				SessionID string `json:"sessionId"`
			} `json:"result"`
		}
		if err := ws.ReadJSON(&f); err != nil {
			t.Fatal(err)
		}
		if f.ID == 1 {
			return f.Result.SessionID
		}
	}
}
