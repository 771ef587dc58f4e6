package child

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testProgram = Program{Name: "fakeagent", Called: "the fakeagent CLI", Title: "a Fake Agent", Marker: "(Fake Agent)",
	EnvVar: "CHILD_TEST_BIN", MinVersion: "1.2.3", InstallHint: "install it somehow"}

// script writes an executable shell script named name into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProgramFind(t *testing.T) {
	dir := t.TempDir()
	onPath := script(t, dir, "fakeagent", "true")
	other := script(t, t.TempDir(), "other", "true")
	t.Setenv("PATH", dir)
	for _, c := range []struct {
		name, flag, env, want string
	}{
		{"the flag first", other, onPath, other},
		{"then the environment", "", other, other},
		{"then the name on PATH", "", "", onPath},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("CHILD_TEST_BIN", c.env)
			if got, err := testProgram.Find(c.flag); err != nil || got != c.want {
				t.Errorf("Find(%q) = %q, %v; want %q", c.flag, got, err, c.want)
			}
		})
	}
	t.Setenv("CHILD_TEST_BIN", "")
	_, err := testProgram.Find("/nonexistent/fakeagent")
	if !errors.Is(err, ErrNotFound) || err.Error() != "the fakeagent CLI was not found (/nonexistent/fakeagent): install it somehow" {
		t.Errorf("a missing program: %v", err)
	}
}

func TestProgramCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, body, version, err string
	}{
		{"new enough", "echo '1.2.3 (Fake Agent)'", "1.2.3", ""},
		{"newer", "echo '1.10.0 (Fake Agent)'", "1.10.0", ""},
		{"too old", "echo '1.2.0 (Fake Agent)'", "1.2.0", "fakeagent 1.2.0 is too old: Lookout needs 1.2.3 or newer; install it somehow"},
		{"another program", "echo '9.9.9 (something else)'", "", `said "9.9.9 (something else)", not a Fake Agent version; install it somehow`},
		{"no version", "echo hello", "", "not a Fake Agent version"},
		{"fails", "exit 3", "", "--version failed: exit status 3; install it somehow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin := script(t, dir, strings.ReplaceAll(c.name, " ", "-"), c.body)
			v, err := testProgram.Check(context.Background(), bin)
			if v != c.version || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
				t.Errorf("Check = %q, %v; want %q, %q", v, err, c.version, c.err)
			}
		})
	}
}
