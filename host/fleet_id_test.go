package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewFleetHostID(t *testing.T) {
	cases := []struct{ name, prefix string }{
		{"build-box", "build-box-"},
		{"ci.example.com", "ci-example-com-"},
		{"héllo wörld", "hllowrld-"},
		{"", "host-"},
		{"\x1b]0;evil\a", "0evil-"},
		{strings.Repeat("a", 80), strings.Repeat("a", 40) + "-"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := newFleetHostID(tc.name)
			if !strings.HasPrefix(id, tc.prefix) || len(id) != len(tc.prefix)+6 || !fleetIDRE.MatchString(id) {
				t.Fatalf("newFleetHostID(%q) = %q, want %q and six hex digits", tc.name, id, tc.prefix)
			}
		})
	}
}

// A host's fleet id is made once and kept in its data directory (0600),
// so the same host returns as the same member; a damaged file is an error,
// not a new identity.
func TestFleetHostIDIsKeptInTheDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	first, err := FleetHostID(dir)
	if err != nil {
		t.Fatal(err)
	}
	again, err := FleetHostID(dir)
	if err != nil || again != first {
		t.Fatalf("second call = %q, %v; want %q", again, err, first)
	}
	if other, _ := FleetHostID(t.TempDir()); other == first {
		t.Fatalf("two data directories share the id %q", first)
	}
	fi, err := os.Stat(filepath.Join(dir, fleetHostIDFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("id file: %v, %v; want mode 0600", fi, err)
	}
	if err := os.WriteFile(filepath.Join(dir, fleetHostIDFile), []byte("no spaces allowed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if id, err := FleetHostID(dir); err == nil {
		t.Fatalf("a damaged id file gave %q", id)
	}
}
