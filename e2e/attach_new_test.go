package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttachStartsAndDeletesSessions: `lookout attach` to a `lookout
// serve` that holds no session starts one and lands in it (it used to
// exit "the host has no sessions"); there ctrl+o opens the picker, whose
// ctrl+n starts another (it had no new-session key when attached), and
// ctrl+d then y deletes one.
func TestAttachStartsAndDeletesSessions(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "host")
	addr := freeAddr(t)
	startHost(t, bin, addr, data, env, "--demo-session=false")
	tm := startTerm(t, dir, env, fmt.Sprintf("%s attach ws://%s --data %s --theme dark --log %s",
		bin, addr, data, filepath.Join(dir, "client.log")))
	tm.waitFor("a new, empty session", func(s string) bool {
		return strings.Contains(s, "beginning of session") && strings.Contains(s, "Write a prompt")
	})
	tm.typeText("first session")
	tm.keys("Enter")
	tm.waitFor("its answer", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle")
	})
	tm.keys("C-o")
	tm.waitText("Sessions on " + addr)
	tm.waitText("ctrl+n new · ctrl+d delete")
	tm.keys("C-n")
	tm.waitFor("a second, empty session", func(s string) bool {
		return strings.Contains(s, "beginning of session") && !strings.Contains(s, "That is all for now.")
	})
	tm.keys("C-o")
	tm.waitFor("the picker with both", func(s string) bool {
		return strings.Contains(s, "Sessions on "+addr) && strings.Count(s, "idle") >= 2
	})
	tm.keys("C-d")
	tm.waitText("and its history? y/enter deletes")
	tm.keys("y")
	tm.waitText("deleted session")
	tm.keys("Escape")
	tm.waitText("LOOKOUT-EXITED 0")

	out, err := exec.Command(bin, "sessions", "ws://"+addr, "--data", data).CombinedOutput()
	if err != nil {
		t.Fatalf("sessions: %v\n%s", err, out)
	}
	if n := strings.Count(strings.TrimSpace(string(out)), "\n"); n != 1 {
		t.Fatalf("after one delete the host lists (want a header and one session):\n%s", out)
	}
}
