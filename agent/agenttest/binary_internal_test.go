package agenttest

import (
	"os"
	"path/filepath"
	"testing"
)

var testSpec = BinarySpec{Package: "agenttest", Name: "fakeagent", EnvVar: "AGENTTEST_BIN",
	AgentsPath: ".agents/fake/node_modules/fake/bin/fakeagent", InstallCommand: "npm install fake", Version: "1.2.3"}

func TestFindBinary(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(testSpec.EnvVar, "")
	t.Setenv("PATH", t.TempDir())
	t.Chdir(sub)
	if p, err := testSpec.Find(); p != "" || err != nil {
		t.Fatalf("nothing installed: got %q, %v", p, err)
	}
	bin := filepath.Join(root, testSpec.AgentsPath)
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 'fakeagent "+testSpec.Version+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := testSpec.Find(); p != bin || err != nil {
		t.Fatalf("found %q, %v; want %s", p, err, bin)
	}
	t.Setenv(testSpec.EnvVar, filepath.Join(root, "missing"))
	if _, err := testSpec.Find(); err == nil {
		t.Fatalf("a %s naming no file is not an error", testSpec.EnvVar)
	}
	t.Setenv(testSpec.EnvVar, bin)
	if p := testSpec.Binary(t); p != bin {
		t.Fatalf("Binary = %q", p)
	}
}

func TestEnvValue(t *testing.T) {
	env := []string{"A=1", "B=x=y", "A=2", "C"}
	for key, want := range map[string]string{"A": "2", "B": "x=y", "C": "", "D": ""} {
		if got := EnvValue(env, key); got != want {
			t.Errorf("EnvValue(%s) = %q, want %q", key, got, want)
		}
	}
}
