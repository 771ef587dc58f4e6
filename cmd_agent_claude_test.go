package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

func TestAgentClaudeRefusesAMissingOrOldBinaryBeforeStarting(t *testing.T) {
	old := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho '2.0.1 (Claude Code)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho 'claude 9.9.9 (something else)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"lookout, missing", []string{"--agent", "claude", "--claude-bin", "/nonexistent/claude", "--data", data}, []string{"not found", "npm install", "@anthropic-ai/claude-code"}},
		{"serve, missing", []string{"serve", "--agent", "claude", "--claude-bin", "/nonexistent/claude", "--data", data, "--addr", "127.0.0.1:0"}, []string{"not found", "--claude-bin"}},
		{"serve, too old", []string{"serve", "--agent", "claude", "--claude-bin", old, "--data", data, "--addr", "127.0.0.1:0"}, []string{"2.0.1 is too old", claude.MinVersion}},
		{"serve, not Claude Code", []string{"serve", "--agent", "claude", "--claude-bin", other, "--data", data, "--addr", "127.0.0.1:0"}, []string{"not a Claude Code version"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runCLIErr(t, c.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if _, err := os.Stat(host.JournalPath(data)); err == nil {
				t.Error("a host started before the agent was checked")
			}
		})
	}
}

func TestServeHelpListsEveryAgent(t *testing.T) {
	out, _, code := runCLIErr(t, "serve", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range agentNames {
		if !strings.Contains(out, name) {
			t.Errorf("serve --help does not name the %s agent", name)
		}
	}
	for _, w := range []string{"--agent claude", "--claude-bin", "--claude-config-dir", claude.EnvBinary} {
		if !strings.Contains(out, w) {
			t.Errorf("serve --help lacks %q", w)
		}
	}
}

// TestClaudeHostKill9MidTurn kills a `lookout serve --agent claude`
// process with SIGKILL while Claude Code streams: Claude Code dies with
// it, the restarted host ends the turn hostDeath, and the next turn
// resumes the Claude Code session with its earlier messages.
func TestClaudeHostKill9MidTurn(t *testing.T) {
	claudeBin := claudetest.Binary(t)
	fake := claudetest.NewFakeModel(t, claudetest.FakeOptions{})
	env := claudetest.Home(t, fake.URL(), claudetest.HomeOptions{})
	work := agenttest.Workdir(t)
	bin := filepath.Join(t.TempDir(), "lookout")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := t.TempDir()
	serve := func(addr string) (*exec.Cmd, string) {
		cmd := exec.Command(bin, "serve", "--agent", "claude", "--claude-bin", claudeBin, "--cwd", work, "--addr", addr, "--data", data)
		cmd.Env = env
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok {
				url, _, _ = strings.Cut(url, " ")
				go func() { _, _ = io.Copy(io.Discard, stdout) }()
				return cmd, url
			}
		}
		t.Fatal("lookout serve did not report its address")
		return nil, ""
	}
	dial := func(url string) *hosttest.Client {
		tok, err := os.ReadFile(host.TokenPath(data))
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := hosttest.DialURL(url, http.Header{"Authorization": {"Bearer " + string(tok)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	proc, url := serve("127.0.0.1:0")
	c := dial(url)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{}, &created)
	sid := created.SessionID
	if _, err := c.Subscribe(sid, "", "", 0); err != nil {
		t.Fatal(err)
	}
	_, first, err := c.Submit(sid, uuid.NewString(), "say: the password is marigold")
	if err != nil {
		t.Fatal(err)
	}
	if ev, _, err := c.WaitEvent(nil, hosttest.TurnCompleted(first)); err != nil || ev.Status != model.StatusCompleted {
		t.Fatalf("first turn: %v %+v", err, ev)
	}
	_, turn, err := c.Submit(sid, uuid.NewString(), "slow answer please")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(nil, func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta && ev.Field == "text" }); err != nil {
		t.Fatal(err)
	}
	kids := childrenNamed(proc.Process.Pid, filepath.Base(claudeBin))
	if len(kids) == 0 {
		t.Fatal("no claude child of the host")
	}
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	proc.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range kids {
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				t.Fatalf("claude %d outlived its host", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	_, url = serve(strings.TrimPrefix(strings.TrimSuffix(url, host.WSPath), "ws://"))
	c = dial(url)
	sub, err := c.Subscribe(sid, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	st := model.NewState(sid)
	if _, err := st.LoadSnapshot(sid, sub.Epoch, *sub.Snapshot); err != nil {
		t.Fatal(err)
	}
	var answer *model.Item
	for _, it := range st.Items() {
		if it.TurnID == turn && it.Kind == model.KindAgentMessage {
			answer = it
		}
	}
	if answer == nil || answer.Status != model.StatusFailed || answer.EndedBy() != "hostDeath" || !strings.HasPrefix(answer.Text(), "slow0") {
		t.Errorf("the answer the crash cut off reads %+v, want failed by hostDeath with its streamed text", answer)
	}
	if st.ActiveTurn() != nil {
		t.Errorf("turn %s still active after recovery", st.ActiveTurn().TurnID)
	}
	for _, it := range st.Items() {
		if it.IsOpen() {
			t.Errorf("item %s (%s) still open after recovery", it.ID, it.Kind)
		}
	}
	_, next, err := c.Submit(sid, uuid.NewString(), "say: what was the password")
	if err != nil {
		t.Fatal(err)
	}
	if ev, _, err := c.WaitEvent(st, hosttest.TurnCompleted(next)); err != nil || ev.Status != model.StatusCompleted {
		t.Fatalf("the turn after the crash: %v %+v", err, ev)
	}
	reqs := fake.Requests()
	prompts := strings.Join(reqs[len(reqs)-1].Prompts(), "\n")
	if !strings.Contains(prompts, "the password is marigold") {
		t.Errorf("the resumed session's request lacks the earlier prompt: %q", prompts)
	}
}
