package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnknownSessionOffersThePicker: `lookout attach --session` with an id
// the host does not know shows a final "Session not found" state, sends
// nothing (the prompt stays in the composer), and ctrl+o opens the picker;
// the chosen session opens with the draft still in the composer.
func TestUnknownSessionOffersThePicker(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "host")
	addr := freeAddr(t)
	startHost(t, bin, addr, data, env)
	tm := startTerm(t, dir, env, fmt.Sprintf("%s attach ws://%s --data %s --session no-such-session --theme dark --log %s",
		bin, addr, data, filepath.Join(dir, "client.log")))
	tm.waitText("Session not found")
	tm.waitText("ctrl+o choose another session")
	tm.typeText("keep me")
	tm.keys("Enter")
	s := tm.waitText("not sent")
	if strings.Contains(s, "sending…") || strings.Contains(s, "retrying…") {
		t.Fatalf("something pretends to be sending:\n%s", s)
	}
	tm.keys("C-o")
	tm.waitText("Sessions on " + addr)
	tm.keys("Enter")
	tm.waitFor("the demo session with the draft", func(s string) bool {
		return strings.Contains(s, "Lookout demo") && strings.Contains(s, "› keep me") && !strings.Contains(s, "Session not found")
	})
	tm.keys("C-c", "C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}
