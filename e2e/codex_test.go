package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
)

// TestCodexTerminal runs `lookout --agent codex` in tmux against the real
// Codex CLI and a fake model: a new session opens, a prompt's answer
// streams in, a command waits for approval, runs once approved and shows
// its output; quitting leaves no Codex process behind.
func TestCodexTerminal(t *testing.T) {
	codexBin := codextest.Binary(t)
	dir, bin, env := setup(t)
	fake := codextest.NewFakeModel(t, codextest.FakeOptions{})
	codexEnv := codextest.Home(t, fake.URL(), codextest.HomeOptions{})
	work := agenttest.Workdir(t)
	var vars []string
	for _, k := range []string{"CODEX_HOME", "HOME", "FAKE_CODEX_API_KEY", "RUST_LOG", "NO_PROXY"} {
		vars = append(vars, k+"="+agenttest.EnvValue(codexEnv, k))
	}
	tm := startTerm(t, dir, env, fmt.Sprintf("env %s %s --agent codex --codex-bin %s --cwd %s --theme dark --log %s",
		strings.Join(vars, " "), bin, codexBin, work, filepath.Join(dir, "client.log")))

	// No Codex session yet: lookout opens a new one.
	tm.waitFor("a new Codex session", func(s string) bool {
		return strings.Contains(s, "codex on 127.0.0.1:") && strings.Contains(s, "idle") && !strings.Contains(s, "Connecting")
	})
	tm.typeText("hello codex")
	tm.keys("Enter")
	tm.waitText("This answer is deterministic")
	tm.waitFor("the first turn to end", func(s string) bool {
		return strings.Contains(s, "codextest") && strings.Contains(s, "idle") && strings.Contains(s, "fake-model")
	})

	// A command waits for approval, runs once approved, shows its output.
	tm.typeText("run: echo e2e-codex-output")
	tm.keys("Enter")
	s := tm.waitText("Approval needed: shell")
	if !strings.Contains(s, "echo e2e-codex-output") {
		t.Fatalf("the approval does not show the command:\n%s", s)
	}
	tm.keys("M-a")
	tm.waitFor("the command's output and the end of the turn", func(s string) bool {
		return strings.Contains(s, "exit 0") && strings.Contains(s, codextest.CommandAnswerPrefix) &&
			strings.Count(s, "e2e-codex-output") >= 2 && strings.Contains(s, "idle") && !strings.Contains(s, "Approval needed")
	})

	tm.keys("C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
	deadline := time.Now().Add(10 * time.Second)
	for codexIn(work) {
		if time.Now().After(deadline) {
			t.Fatal("a Codex process outlived lookout")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// codexIn reports whether a process named codex runs in dir.
func codexIn(dir string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		comm, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "codex" {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			return true
		}
	}
	return false
}
