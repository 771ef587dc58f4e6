package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
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
	cases := []refusal{
		{"lookout, missing", []string{"--agent", "codex", "--codex-bin", "/nonexistent/codex", "--data", data}, []string{"not found", "npm install"}},
		{"serve, missing", []string{"serve", "--agent", "codex", "--codex-bin", "/nonexistent/codex", "--data", data, "--addr", "127.0.0.1:0"}, []string{"not found", "npm install"}},
		{"serve, too old", []string{"serve", "--agent", "codex", "--codex-bin", old, "--data", data, "--addr", "127.0.0.1:0"}, []string{"0.100.0 is too old", codex.MinVersion}},
		{"an unknown agent", []string{"serve", "--agent", "nope", "--data", data}, []string{`unknown agent "nope"`}},
	}
	testRefusedBeforeStart(t, data, cases)
}

// refusal is a command line that must fail as a usage error (exit 2)
// saying each of want, before any host starts.
type refusal struct {
	name string
	args []string
	want []string
}

// testRefusedBeforeStart runs each case's command line and checks its
// refusal, and that no host opened a journal in data.
func testRefusedBeforeStart(t *testing.T, data string, cases []refusal) {
	t.Helper()
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

// serve --help names every agent and every agent's flags.
func TestServeHelpListsEveryAgent(t *testing.T) {
	out, _, code := runCLIErr(t, "serve", "--help")
	if code != 0 {
		t.Fatalf("serve --help exit %d", code)
	}
	for _, name := range agentNames {
		if !strings.Contains(out, name) {
			t.Errorf("serve --help does not name the agent %q", name)
		}
	}
	for _, w := range []string{"Codex (--agent codex)", "--codex-bin", "--codex-home", codex.EnvBinary,
		"--agent claude", "--claude-bin", "--claude-config-dir", claude.EnvBinary,
		"OpenCode (--agent opencode)", "--opencode-bin", "--opencode-url"} {
		if !strings.Contains(out, w) {
			t.Errorf("serve --help lacks %q", w)
		}
	}
}
