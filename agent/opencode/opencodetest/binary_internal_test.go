package opencodetest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindBinary(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(BinaryEnv, "")
	t.Setenv("PATH", t.TempDir())
	t.Chdir(sub)
	if p, err := findBinary(); p != "" || err != nil {
		t.Fatalf("nothing installed: got %q, %v", p, err)
	}
	bin := filepath.Join(root, AgentsBinary)
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho "+Version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := findBinary(); p != bin || err != nil {
		t.Fatalf("found %q, %v; want %s", p, err, bin)
	}
	t.Setenv(BinaryEnv, filepath.Join(root, "missing"))
	if _, err := findBinary(); err == nil {
		t.Fatalf("a %s naming no file is not an error", BinaryEnv)
	}
	t.Setenv(BinaryEnv, bin)
	if p := Binary(t); p != bin {
		t.Fatalf("Binary = %q", p)
	}
}
