package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBigAnswerSaysItWasCut: in a real terminal, the demo's big answer
// (about 1.1 MiB) ends where the host cut it at 1 MiB, with the note
// under it, and the session goes on.
func TestBigAnswerSaysItWasCut(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	data := filepath.Join(dir, "host")
	addr := freeAddr(t)
	startHost(t, bin, addr, data, env)
	tm := startTerm(t, dir, env, fmt.Sprintf("%s attach ws://%s --data %s --theme dark --log %s",
		bin, addr, data, filepath.Join(dir, "client.log")))
	tm.waitText("Sessions on " + addr)
	tm.keys("Enter")
	tm.waitFor("the demo session, live", func(s string) bool {
		return strings.Contains(s, "Write a prompt") && strings.Contains(s, "idle") && !strings.Contains(s, "Connecting")
	})
	tm.typeText("big answer")
	tm.keys("Enter")
	s := tm.waitFor("the note under the cut answer, the turn over", func(s string) bool {
		return strings.Contains(s, "⚠ text truncated by host") && strings.Contains(s, "idle")
	})
	// The note comes right under where the text stops (mid-paragraph).
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, "⚠ text truncated by host") && (i == 0 || !strings.Contains(lines[i-1], "Paragraph ")) {
			t.Fatalf("the note is not right under the answer's last line:\n%s", s)
		}
	}
	if strings.Contains(s, "cut by Lookout") {
		t.Fatalf("the client cut an answer the host kept within its bound:\n%s", s)
	}
}
