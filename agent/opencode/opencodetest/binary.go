package opencodetest

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

// Version is the OpenCode version the tests are written against.
const Version = "1.18.33"

// BinaryEnv names the environment variable that points at the opencode
// binary.
const BinaryEnv = "LOOKOUT_OPENCODE_BIN"

// AgentsBinary is where InstallCommand puts the native binary, relative to
// the module root. OpenCode has a folder of its own under .agents/: an npm
// install with --no-save prunes what another such install put in the same
// folder.
const AgentsBinary = ".agents/opencode/node_modules/opencode-linux-x64/bin/opencode"

// InstallCommand installs the binary where Binary finds it (run it in the
// module root; .ci/run does).
const InstallCommand = `npm install --no-save --prefix "$PWD/.agents/opencode" opencode-ai@` + Version

// Binary returns the path of the opencode binary for t: $LOOKOUT_OPENCODE_BIN,
// else AgentsBinary in the first directory that has it on the way up from
// the working directory to the module root, else `opencode` on PATH.
// Without one it fails the test when CI=true and skips it otherwise,
// saying how to install it. A $LOOKOUT_OPENCODE_BIN that does not exist
// fails the test. A version other than Version is logged, not a failure.
func Binary(t testing.TB) string {
	t.Helper()
	path, err := findBinary()
	if err != nil {
		t.Fatalf("opencodetest: %v", err)
	}
	if path == "" {
		msg := "opencodetest: no opencode binary: set " + BinaryEnv + ", or install it in the module root with\n\t" + InstallCommand
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
	if p, err := exec.LookPath("opencode"); err == nil {
		return p, nil
	}
	return "", nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// checkVersion runs `opencode --version` ("1.18.33"): a binary that does
// not run fails t, another version is logged.
func checkVersion(t testing.TB, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		t.Fatalf("opencodetest: %s --version: %v", path, err)
	}
	if v := strings.TrimSpace(string(out)); v != Version {
		t.Logf("opencodetest: warning: %s is %q, the tests expect %s (install: %s)", path, v, Version, InstallCommand)
	}
}
