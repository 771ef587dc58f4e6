// Package datadir is the one layout of a Lookout data directory, shared by
// the host, which writes it, and the client, which reads it to find the
// local host: where the directory is by default, one per agent, and the
// files in it.
package datadir

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// Default is the data directory of a host started without one:
// "$XDG_STATE_HOME/lookout" (on Linux usually ~/.local/state/lookout).
func Default() string { return filepath.Join(xdg.StateHome, "lookout") }

// ForAgent is the default data directory of a host running the named
// agent: Default for the demo agent, and a directory of its own below it
// for each real agent, so that one agent's sessions never open in
// another's host.
func ForAgent(agent string) string {
	if agent == "" || agent == "demo" {
		return Default()
	}
	return filepath.Join(Default(), "agents", agent)
}

// Local lists the default data directories of every agent's host on this
// machine that exist: Default first.
func Local() []string {
	dirs := []string{Default()}
	entries, _ := os.ReadDir(filepath.Join(Default(), "agents"))
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(Default(), "agents", e.Name()))
		}
	}
	return dirs
}

// Token is the file where a host keeps its bearer token (mode 0600).
func Token(dir string) string { return filepath.Join(dir, "token") }

// Address is the file where the running host (the one holding Lock)
// records its WebSocket URL; a host that died leaves it behind, so it is
// a hint, never proof.
func Address(dir string) string { return filepath.Join(dir, "address") }

// Lock is the file a running host holds an exclusive flock on.
func Lock(dir string) string { return filepath.Join(dir, "lock") }

// Journal is a durable host's SQLite journal.
func Journal(dir string) string { return filepath.Join(dir, "journal.db") }
