package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/agent/opencode"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
)

func TestAgentOpenCodeRefusesAMissingOrOldBinaryBeforeStarting(t *testing.T) {
	old := filepath.Join(t.TempDir(), "opencode")
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho 1.0.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	cases := []refusal{
		{"lookout, missing", []string{"--agent", "opencode", "--opencode-bin", "/nonexistent/opencode", "--data", data}, []string{"not found", "npm install"}},
		{"serve, missing", []string{"serve", "--agent", "opencode", "--opencode-bin", "/nonexistent/opencode", "--data", data, "--addr", "127.0.0.1:0"}, []string{"not found", "npm install"}},
		{"serve, too old", []string{"serve", "--agent", "opencode", "--opencode-bin", old, "--data", data, "--addr", "127.0.0.1:0"}, []string{"1.0.0 is too old", opencode.MinVersion}},
		{"serve, a bad server URL", []string{"serve", "--agent", "opencode", "--opencode-url", "localhost:4096", "--data", data, "--addr", "127.0.0.1:0"}, []string{"--opencode-url", "http"}},
	}
	testRefusedBeforeStart(t, data, cases)
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
