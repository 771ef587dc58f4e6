package codextest

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

// Version is the Codex CLI version the tests are written against.
const Version = "0.169.0"

// BinaryEnv names the environment variable that points at the codex binary.
const BinaryEnv = "LOOKOUT_CODEX_BIN"

// AgentsBinary is where `npm install --prefix .agents/codex` puts the native
// binary, relative to the module root.
const AgentsBinary = ".agents/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"

// InstallCommand installs the binary where Binary finds it (run it in the
// module root; .ci/run does).
const InstallCommand = `npm install --no-save --prefix "$PWD/.agents/codex" @openai/codex@` + Version

// Binary returns the path of the codex binary for t: $LOOKOUT_CODEX_BIN,
// else AgentsBinary in the first directory that has it on the way up from
// the working directory to the module root, else `codex` on PATH. Without
// one it fails the test when CI=true and skips it otherwise, saying how to
// install it. A $LOOKOUT_CODEX_BIN that does not exist fails the test.
// A version other than Version is logged as a warning, not a failure.
func Binary(t testing.TB) string {
	t.Helper()
	path, err := findBinary()
	if err != nil {
		t.Fatalf("codextest: %v", err)
	}
	if path == "" {
		msg := "codextest: no codex binary: set " + BinaryEnv + ", or install it in the module root with\n\t" + InstallCommand
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
	if p, err := exec.LookPath("codex"); err == nil {
		return p, nil
	}
	return "", nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// checkVersion runs `codex --version` ("codex-cli 0.169.0"): a binary that
// does not run fails t, another version is logged.
func checkVersion(t testing.TB, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		t.Fatalf("codextest: %s --version: %v", path, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 || fields[len(fields)-1] != Version {
		t.Logf("codextest: warning: %s is %q, the tests expect %s (install: %s)", path, strings.TrimSpace(string(out)), Version, InstallCommand)
	}
}
