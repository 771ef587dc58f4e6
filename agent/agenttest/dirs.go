package agenttest

import (
	"path/filepath"
	"strings"
	"testing"
)

// Workdir makes an empty scratch directory for the agent to work in (its
// cwd: the commands it runs really run there). It is removed when the
// test ends. The path has symlinks resolved, as agents report it.
func Workdir(t testing.TB) string {
	t.Helper()
	return TempDir(t)
}

// TempDir is t.TempDir with symlinks resolved (a HOME, a config
// directory): removed when the test ends.
func TempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatalf("agenttest: %v", err)
	}
	return d
}

// EnvValue is the value of key in env ("KEY=value" entries; the last one
// wins, as for a process), or "".
func EnvValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
