package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHomeShowsTheFirstItem runs `lookout attach` with a tail of four
// items in tmux: home in the empty composer fetches the session's start at
// once and shows its first prompt under "beginning of session"; end goes
// back to the newest items. (The demo session fits one page; the walk
// through a long session's hole is tui's real-host test.)
func TestHomeShowsTheFirstItem(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "host")
	addr := freeAddr(t)
	startHost(t, bin, addr, data, env)
	tm := startTerm(t, dir, env, fmt.Sprintf("%s attach ws://%s --data %s --tail 4 --theme dark --log %s",
		bin, addr, data, filepath.Join(dir, "client.log")))
	tm.waitText("Sessions on " + addr)
	tm.keys("Enter")
	s := tm.waitFor("the session's newest items", func(s string) bool {
		return strings.Contains(s, "Write a prompt") && strings.Contains(s, "idle")
	})
	const first = "Give me a tour of this project"
	if strings.Contains(s, first) || strings.Contains(s, "beginning of session") {
		t.Fatalf("the session's start is already on screen; the test needs it unloaded:\n%s", s)
	}
	tm.keys("Home")
	tm.waitFor("the session's first prompt at the top", func(s string) bool {
		return strings.Contains(s, first) && strings.Contains(s, "beginning of session")
	})
	tm.keys("End")
	tm.waitFor("the newest items again", func(s string) bool { return !strings.Contains(s, first) })
	tm.keys("C-c", "C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}
