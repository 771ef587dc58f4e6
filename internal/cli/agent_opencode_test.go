package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/agent/opencode"
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
