package main

import (
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
)

// TestCodexHostKill9MidTurn kills a `lookout serve --agent codex` process
// with SIGKILL while Codex streams: Codex dies with it, the restarted host
// ends the turn hostDeath, and the next turn resumes the Codex thread with
// its earlier messages.
func TestCodexHostKill9MidTurn(t *testing.T) {
	bin := codextest.Binary(t)
	fake := codextest.NewFakeModel(t, codextest.FakeOptions{})
	testHostKill9MidTurn(t, kill9Case{agent: "codex", binFlag: "--codex-bin", bin: bin, child: "codex", conversation: "thread",
		env: codextest.Home(t, fake.URL(), codextest.HomeOptions{}), lastPrompts: func() []string {
			reqs := fake.Requests()
			return reqs[len(reqs)-1].Prompts()
		}})
}

// TestClaudeHostKill9MidTurn kills a `lookout serve --agent claude`
// process with SIGKILL while Claude Code streams: Claude Code dies with
// it, the restarted host ends the turn hostDeath, and the next turn
// resumes the Claude Code session with its earlier messages.
func TestClaudeHostKill9MidTurn(t *testing.T) {
	bin := claudetest.Binary(t)
	fake := claudetest.NewFakeModel(t, claudetest.FakeOptions{})
	testHostKill9MidTurn(t, kill9Case{agent: "claude", binFlag: "--claude-bin", bin: bin, child: filepath.Base(bin), conversation: "session",
		env: claudetest.Home(t, fake.URL(), claudetest.HomeOptions{}), lastPrompts: func() []string {
			reqs := fake.Requests()
			return reqs[len(reqs)-1].Prompts()
		}})
}

// TestOpenCodeHostKill9MidTurn kills a `lookout serve --agent opencode`
// process with SIGKILL while OpenCode streams: OpenCode dies with it, the
// restarted host ends the turn hostDeath, and the next turn continues the
// OpenCode session with its earlier messages.
func TestOpenCodeHostKill9MidTurn(t *testing.T) {
	bin := opencodetest.Binary(t)
	fake := opencodetest.NewFakeModel(t, opencodetest.FakeOptions{})
	testHostKill9MidTurn(t, kill9Case{agent: "opencode", binFlag: "--opencode-bin", bin: bin, child: "opencode", conversation: "session",
		env: opencodetest.Home(t, fake.URL(), opencodetest.HomeOptions{}), lastPrompts: func() []string {
			reqs := fake.TurnRequests()
			return reqs[len(reqs)-1].Prompts()
		}})
}
