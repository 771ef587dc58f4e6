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

// TestEmbeddedDemoSwitchesSessions: `lookout` (the embedded demo) opens
// the picker over its own host with ctrl+o, and n there starts a new
// session with the demo agent, without restarting.
func TestEmbeddedDemoSwitchesSessions(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	tm := startTerm(t, dir, env, fmt.Sprintf("%s --pace 2ms --theme dark --log %s", bin, filepath.Join(dir, "client.log")))
	tm.waitFor("the demo session", func(s string) bool {
		return strings.Contains(s, "Welcome to Lookout") && strings.Contains(s, "idle")
	})
	tm.keys("C-o")
	tm.waitText("Sessions on embedded host 127.0.0.1:")
	tm.keys("C-n")
	tm.waitFor("a new, empty session", func(s string) bool {
		return strings.Contains(s, "beginning of session") && !strings.Contains(s, "Welcome to Lookout") && strings.Contains(s, "Write a prompt")
	})
	tm.typeText("a second session")
	tm.keys("Enter")
	tm.waitFor("its answer", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle")
	})
	tm.keys("C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}

// TestPickerSaysWhichSessionNeedsTheUser: with an approval waiting in one
// session, the picker (ctrl+o) and `lookout sessions` say so on that
// session's row; answered from the session, the row goes back to its
// status. Then a failed turn says "last turn failed".
func TestPickerSaysWhichSessionNeedsTheUser(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	tm := startTermSized(t, "", dir, env, fmt.Sprintf("%s --pace 2ms --theme dark --log %s", bin, filepath.Join(dir, "client.log")), 120, 30)
	tm.waitFor("the demo session", func(s string) bool {
		return strings.Contains(s, "Welcome to Lookout") && strings.Contains(s, "idle")
	})
	tm.typeText("run a tool please")
	tm.keys("Enter")
	tm.waitText("Approval needed")
	tm.keys("C-o")
	tm.waitFor("the row that needs the user", func(s string) bool {
		return strings.Contains(s, "Sessions on embedded host") && strings.Contains(s, "needs approval")
	})
	list := exec.Command(bin, "sessions") // the host on this machine: XDG_STATE_HOME's
	list.Env = env
	out, err := list.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "needs approval") {
		t.Errorf("lookout sessions: %v\n%s", err, out)
	}
	tm.keys("Enter") // back into the session
	tm.waitText("Approval needed")
	tm.keys("M-a")
	tm.waitFor("the approved turn to end", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle") && !strings.Contains(s, "Approval needed")
	})
	tm.typeText("fail turn now")
	tm.keys("Enter")
	tm.waitText("last turn failed: the model provider answered 500")
	tm.keys("C-o")
	tm.waitFor("the failed row", func(s string) bool {
		return strings.Contains(s, "Sessions on embedded host") && strings.Contains(s, "last turn failed") && !strings.Contains(s, "needs approval")
	})
	tm.keys("Escape")
	tm.keys("C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}
