package claudetest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Version is the Claude Code version the tests are written against.
const Version = "2.1.332"

// BinaryEnv names the environment variable that points at the claude binary.
const BinaryEnv = "LOOKOUT_CLAUDE_BIN"

// AgentsBinary is where `npm install --prefix .agents/claude` puts the
// native binary, relative to the module root (the package's postinstall
// step puts the platform's native build in place of bin/claude.exe). It
// has a prefix of its own: an `npm install --no-save` into a prefix
// removes the packages an earlier one put there (Codex's, in .agents).
const AgentsBinary = ".agents/claude/node_modules/@anthropic-ai/claude-code/bin/claude.exe"

// InstallCommand installs the binary where Binary finds it (run it in the
// module root; .ci/run does).
const InstallCommand = `npm install --no-save --prefix "$PWD/.agents/claude" @anthropic-ai/claude-code@` + Version

// Binary returns the path of the claude binary for t: $LOOKOUT_CLAUDE_BIN,
// else AgentsBinary in the first directory that has it on the way up from
// the working directory to the module root, else `claude` on PATH. Without
// one it fails the test when CI=true and skips it otherwise, saying how to
// install it. A $LOOKOUT_CLAUDE_BIN that does not exist fails the test. A
// version other than Version is logged as a warning, not a failure.
func Binary(t testing.TB) string {
	t.Helper()
	path, err := findBinary()
	if err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	if path == "" {
		msg := "claudetest: no claude binary: set " + BinaryEnv + ", or install it in the module root with\n\t" + InstallCommand
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	checkVersion(t, path)
	return path
}

// findBinary applies Binary's search order. It returns "" with no error
// when nothing was found.
func findBinary() (string, error) {
	if p := os.Getenv(BinaryEnv); p != "" {
		if !isExecutable(p) {
			return "", errors.New(BinaryEnv + "=" + p + " is not an executable file")
		}
		return filepath.Abs(p)
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			if p := filepath.Join(dir, AgentsBinary); isExecutable(p) {
				return p, nil
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break // the module root: stop here
			}
			up := filepath.Dir(dir)
			if up == dir {
				break
			}
			dir = up
		}
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p, nil
	}
	return "", nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// checkVersion runs `claude --version` ("2.1.332 (Claude Code)"): a binary
// that does not run fails t, another version is logged.
func checkVersion(t testing.TB, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		t.Fatalf("claudetest: %s --version: %v", path, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 || fields[0] != Version {
		t.Logf("claudetest: warning: %s is %q, the tests expect %s (install: %s)", path, strings.TrimSpace(string(out)), Version, InstallCommand)
	}
}
