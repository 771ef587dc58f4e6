package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/agent/claude"
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
	cases := []refusal{
		{"lookout, missing", []string{"--agent", "claude", "--claude-bin", "/nonexistent/claude", "--data", data}, []string{"not found", "npm install", "@anthropic-ai/claude-code"}},
		{"serve, missing", []string{"serve", "--agent", "claude", "--claude-bin", "/nonexistent/claude", "--data", data, "--addr", "127.0.0.1:0"}, []string{"not found", "--claude-bin"}},
		{"serve, too old", []string{"serve", "--agent", "claude", "--claude-bin", old, "--data", data, "--addr", "127.0.0.1:0"}, []string{"2.0.1 is too old", claude.MinVersion}},
		{"serve, not Claude Code", []string{"serve", "--agent", "claude", "--claude-bin", other, "--data", data, "--addr", "127.0.0.1:0"}, []string{"not a Claude Code version"}},
	}
	testRefusedBeforeStart(t, data, cases)
}
