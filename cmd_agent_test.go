package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// runCLIErr is runCLI that also returns what the command wrote to stderr.
func runCLIErr(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		code = exitCode(err)
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), code
}

func TestAgentCodexRefusesAMissingOrOldBinaryBeforeStarting(t *testing.T) {
	old := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho codex-cli 0.100.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"lookout, missing", []string{"--agent", "codex", "--codex-bin", "/nonexistent/codex", "--data", data}, []string{"not found", "npm install"}},
		{"serve, missing", []string{"serve", "--agent", "codex", "--codex-bin", "/nonexistent/codex", "--data", data, "--addr", "127.0.0.1:0"}, []string{"not found", "npm install"}},
		{"serve, too old", []string{"serve", "--agent", "codex", "--codex-bin", old, "--data", data, "--addr", "127.0.0.1:0"}, []string{"0.100.0 is too old", codex.MinVersion}},
		{"an unknown agent", []string{"serve", "--agent", "nope", "--data", data}, []string{`unknown agent "nope"`}},
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

func TestSendNewStartsACodexSession(t *testing.T) {
	bin := codextest.Binary(t)
	fake := codextest.NewFakeModel(t, codextest.FakeOptions{})
	env := codextest.Home(t, fake.URL(), codextest.HomeOptions{})
	h := hosttest.Start(t, host.Options{Agent: "codex",
		AgentImpl: codex.New(codex.Options{Bin: bin, Env: env, Cwd: agenttest.Workdir(t)})})
	out, stderr, code := runCLIErr(t, "send", h.Addr(), "--token", h.Token(), "--new", "say: a brand new session")
	if code != 0 {
		t.Fatalf("send --new exit %d: %s", code, stderr)
	}
	if strings.TrimSpace(out) != "a brand new session" {
		t.Errorf("stdout %q", out)
	}
	sid, _, _ := strings.Cut(stderr, "\n")
	if _, err := uuid.Parse(sid); err != nil {
		t.Fatalf("the first stderr line %q is not the new session's id", sid)
	}
	list, _, _ := runCLIErr(t, "sessions", h.Addr(), "--token", h.Token())
	if !strings.Contains(list, sid) || !strings.Contains(list, "a brand new session") {
		t.Errorf("sessions does not list the new session:\n%s", list)
	}
	if _, _, code := runCLIErr(t, "send", h.Addr(), "--token", h.Token(), "--new", "--session", sid, "x"); code != exitUsage {
		t.Errorf("--new with --session: exit %d, want %d", code, exitUsage)
	}
}

// TestCodexHostKill9MidTurn kills a `lookout serve --agent codex` process
// with SIGKILL while Codex streams: Codex dies with it, the restarted host
// ends the turn hostDeath, and the next turn resumes the Codex thread with
// its earlier messages.
func TestCodexHostKill9MidTurn(t *testing.T) {
	codexBin := codextest.Binary(t)
	fake := codextest.NewFakeModel(t, codextest.FakeOptions{})
	env := codextest.Home(t, fake.URL(), codextest.HomeOptions{})
	work := agenttest.Workdir(t)
	bin := filepath.Join(t.TempDir(), "lookout")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := t.TempDir()
	serve := func(addr string) (*exec.Cmd, string) {
		cmd := exec.Command(bin, "serve", "--agent", "codex", "--codex-bin", codexBin, "--cwd", work, "--addr", addr, "--data", data)
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
	kids := childrenNamed(proc.Process.Pid, "codex")
	if len(kids) == 0 {
		t.Fatal("no codex child of the host")
	}
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	proc.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range kids {
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				t.Fatalf("codex %d outlived its host", pid)
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
		t.Errorf("the resumed thread's request lacks the earlier prompt: %q", prompts)
	}
}

// childrenNamed lists the pids of parent's children whose command name is
// name (from /proc).
func childrenNamed(parent int, name string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 || s[open+1:close] != name {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == parent {
			out = append(out, pid)
		}
	}
	return out
}

// A client command given no URL finds the host running on this machine,
// an agent's host included, and sends it that host's token.
func TestClientCommandsFindTheRunningAgentHost(t *testing.T) {
	dir := host.AgentDataDir("scripted")
	t.Cleanup(func() { os.RemoveAll(dir) })
	h, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: dir, DemoSession: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	out, stderr, code := runCLIErr(t, "sessions")
	if code != 0 || !strings.Contains(out, h.DefaultSessionID()) {
		t.Fatalf("sessions with no URL: exit %d\n%s\n%s", code, out, stderr)
	}
}
