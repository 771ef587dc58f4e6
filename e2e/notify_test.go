package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNotifiesOnlyWhenTheTerminalIsNotFocused: lookout writes a terminal
// notification when an approval waits while its terminal reported focus
// out, and none while it is focused. The pane's output is captured raw
// (tmux pipe-pane); focus is reported as a terminal reports it (CSI O,
// CSI I), typed into the pane.
func TestNotifiesOnlyWhenTheTerminalIsNotFocused(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	out := filepath.Join(dir, "pane.out")
	// LOOKOUT_NOTIFY picks OSC 9: inside tmux lookout would ring the bell.
	tm := startTermSized(t, "", dir, env, fmt.Sprintf("LOOKOUT_NOTIFY=osc9 %s --pace 2ms --theme dark --log %s", bin, filepath.Join(dir, "client.log")), 100, 30)
	tm.waitFor("the demo session", func(s string) bool {
		return strings.Contains(s, "Welcome to Lookout") && strings.Contains(s, "idle")
	})
	tm.tmux("pipe-pane", "-O", "-t", "e2e", "cat >> "+shellQuote(out))
	captured := func() string { b, _ := os.ReadFile(out); return string(b) }
	const osc9 = "\x1b]9;Approval needed"

	// Focused: the approval shows, no notification.
	tm.typeText("run a tool please")
	tm.keys("Enter")
	tm.waitText("Approval needed")
	time.Sleep(500 * time.Millisecond)
	if strings.Contains(captured(), osc9) {
		t.Fatal("a notification was written while the terminal was focused")
	}
	tm.keys("M-a")
	tm.waitFor("the approved turn to end", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle") && !strings.Contains(s, "Approval needed")
	})

	// Focus out (CSI O), then a new approval: notified, once.
	tm.tmux("send-keys", "-t", "e2e", "-H", "1b", "5b", "4f")
	tm.typeText("run a tool again")
	tm.keys("Enter")
	tm.waitText("Approval needed")
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(captured(), osc9) {
		if time.Now().After(deadline) {
			t.Fatalf("no OSC 9 notification with the terminal unfocused; captured %q", tail(captured(), 5))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := strings.Count(captured(), osc9); n != 1 {
		t.Errorf("%d notifications for one approval", n)
	}
	tm.tmux("send-keys", "-t", "e2e", "-H", "1b", "5b", "49") // focus back in
	tm.keys("M-a")
	tm.waitFor("the second turn to end", func(s string) bool {
		return strings.Contains(s, "idle") && !strings.Contains(s, "Approval needed")
	})
	tm.keys("C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}
