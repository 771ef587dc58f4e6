//go:build unix

package sync

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lookout-sh/lookout/host"
)

// The lock probe tells a running host's data directory from one a host
// left (or never had), and does not keep the host from starting.
func TestHostHoldsLock(t *testing.T) {
	dir := t.TempDir()
	if held, known := hostHoldsLock(dir); held || !known {
		t.Fatalf("no lock file: held %v known %v", held, known)
	}
	h := startHost(t, host.Options{DataDir: dir})
	if held, known := hostHoldsLock(dir); !held || !known {
		t.Fatalf("a running host: held %v known %v", held, known)
	}
	h.Close()
	if _, err := os.Stat(filepath.Join(dir, "lock")); err != nil {
		t.Fatal(err)
	}
	if held, known := hostHoldsLock(dir); held || !known {
		t.Fatalf("after the host closed: held %v known %v", held, known)
	}
	startHost(t, host.Options{DataDir: dir}) // the probe released the lock
}
