package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

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
