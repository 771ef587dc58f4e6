package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecondWindowTakesTheHostOver: two `lookout` windows on one data
// directory share the first window's embedded host. When the first quits,
// the second runs the host itself and carries on: a prompt typed there
// after the handover is answered, and the status bar names the new
// address.
func TestSecondWindowTakesTheHostOver(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "data-dir")
	command := func(log string) string {
		return fmt.Sprintf("%s --pace 2ms --theme dark --data %s --log %s", bin, data, filepath.Join(dir, log))
	}
	demoIdle := func(s string) bool { return strings.Contains(s, "Welcome to Lookout") && strings.Contains(s, "idle") }
	first := startNamedTerm(t, "first", dir, env, command("first.log"))
	first.waitFor("the demo session in the first window", demoIdle)
	second := startNamedTerm(t, "second", dir, env, command("client.log"))
	second.waitText("Sessions on 127.0.0.1:") // the first window's host
	second.keys("Enter")
	second.waitFor("the demo session in the second window", demoIdle)
	before := strings.Count(second.screen(), "That is all for now.")

	first.keys("C-c", "C-c")
	first.waitText("LOOKOUT-EXITED 0")

	second.typeText("after the handover")
	second.keys("Enter")
	s := second.waitFor("the answer, from the host the second window now runs", func(s string) bool {
		return strings.Contains(s, "after the handover") && strings.Count(s, "That is all for now.") > before &&
			strings.Contains(s, "idle")
	})
	if strings.Contains(s, "Reconnecting") {
		t.Fatalf("the second window is still reconnecting:\n%s", s)
	}
	second.keys("C-c", "C-c")
	second.waitText("LOOKOUT-EXITED 0")
}
