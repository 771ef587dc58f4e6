package agenttest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
)

// BinarySpec says where a bridge's tests find the agent's real program and
// which version they are written against.
type BinarySpec struct {
	// Package names the bridge's test package in messages ("codextest").
	Package string
	// Name is the program looked up on PATH ("codex").
	Name string
	// EnvVar points at the program when set ("LOOKOUT_CODEX_BIN").
	EnvVar string
	// AgentsPath is where `npm install --prefix .agents/NAME` puts the
	// program, relative to the module root (.ci/run installs it there).
	AgentsPath string
	// InstallCommand installs the program at AgentsPath when run in the
	// module root; messages show it.
	InstallCommand string
	// Version is the program's version the tests expect; another one is
	// logged as a warning, not a failure.
	Version string
}

// Binary returns the path of the program for t: $EnvVar, else AgentsPath
// in the first directory that has it on the way up from the working
// directory to the module root, else Name on PATH. Without one it fails
// the test when CI=true and skips it otherwise, saying how to install it.
// An $EnvVar that names no executable fails the test. A version other
// than Version is logged as a warning.
func (s BinarySpec) Binary(t testing.TB) string {
	t.Helper()
	path, err := s.Find()
	if err != nil {
		t.Fatalf("%s: %v", s.Package, err)
	}
	if path == "" {
		msg := s.Package + ": no " + s.Name + " binary: set " + s.EnvVar + ", or install it in the module root with\n\t" + s.InstallCommand
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s.checkVersion(t, path)
	return path
}

// Find applies Binary's search order. It returns "" with no error when
// nothing was found, and an error when $EnvVar names no executable.
func (s BinarySpec) Find() (string, error) {
	if p := os.Getenv(s.EnvVar); p != "" {
		if !isExecutable(p) {
			return "", errors.New(s.EnvVar + "=" + p + " is not an executable file")
		}
		return filepath.Abs(p)
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			if p := filepath.Join(dir, s.AgentsPath); isExecutable(p) {
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
	if p, err := exec.LookPath(s.Name); err == nil {
		return p, nil
	}
	return "", nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// checkVersion runs `path --version`: a program that does not run fails
// t, another version than s.Version is logged.
func (s BinarySpec) checkVersion(t testing.TB, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		t.Fatalf("%s: %s --version: %v", s.Package, path, err)
	}
	if child.ParseVersion(string(out)) != s.Version {
		t.Logf("%s: warning: %s is %q, the tests expect %s (install: %s)", s.Package, path, strings.TrimSpace(string(out)), s.Version, s.InstallCommand)
	}
}
