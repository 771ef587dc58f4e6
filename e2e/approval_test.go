package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
)

// TestApprovalSeenWholeAt80x24: in an 80x24 terminal, the demo agent asks
// to approve a 1,300-character command. alt+a does not approve what is
// not on screen: it opens the review and pages through it, and approves
// only once every part of the command has been shown. Then a deny with a
// reason: the agent's denied tool quotes it (issue 25).
func TestApprovalSeenWholeAt80x24(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, bin, env := setup(t)
	tm := startTermSized(t, "", dir, env, fmt.Sprintf("%s --pace 2ms --theme dark --log %s", bin, filepath.Join(dir, "client.log")), 80, 24)
	tm.waitFor("the demo session", func(s string) bool {
		return strings.Contains(s, "Lookout demo") && strings.Contains(s, "idle") && strings.Contains(s, "Write a prompt")
	})
	tm.typeText("huge command please")
	tm.keys("Enter")
	// The command has streamed whole once the approval is asked.
	seen := tm.waitText("Approval needed")
	tm.keys("M-a")
	seen += tm.waitText("Review before approving")
	for i := 0; !strings.Contains(tm.screen(), "all of it shown"); i++ {
		if i > 20 {
			t.Fatalf("the review never reached its end; screen:\n%s", tm.screen())
		}
		if strings.Contains(tm.screen(), "approved:") {
			t.Fatalf("approved before the review's end was shown:\n%s", tm.screen())
		}
		before := tm.screen()
		tm.keys("M-a")
		seen += "\n" + tm.waitFor("the next page", func(s string) bool { return s != before })
	}
	seen += "\n" + tm.screen()
	for i := 1; strings.Contains(host.DemoHugeCommand(), fmt.Sprintf("'TestPart%02d'", i)); i++ {
		if part := fmt.Sprintf("'TestPart%02d'", i); !strings.Contains(seen, part) {
			t.Errorf("%s was never on screen before approving", part)
		}
	}
	if !strings.Contains(seen, host.DemoHugeCommandEnd) {
		t.Errorf("the command's end %q was never on screen before approving", host.DemoHugeCommandEnd)
	}
	tm.keys("M-a")
	tm.waitFor("the approved command to run and the turn to end", func(s string) bool {
		return strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle") && !strings.Contains(s, "Approval needed")
	})

	// Deny with a reason: typed on the bar, enter sends it.
	tm.typeText("huge command once more")
	tm.keys("Enter")
	tm.waitText("Approval needed")
	tm.keys("M-d")
	tm.waitText("tell the agent what to do instead")
	tm.typeText("run part 3 only")
	time.Sleep(100 * time.Millisecond)
	tm.keys("Enter")
	// The answer that follows may push the tool off screen before a
	// capture sees it; once the turn ends, one page up shows the reason.
	tm.waitFor("the denied turn to end", func(s string) bool {
		return strings.Contains(s, "the user denied this command: run part 3 only") ||
			strings.Contains(s, "That is all for now.") && strings.Contains(s, "idle")
	})
	if !strings.Contains(tm.screen(), "the user denied this command: run part 3 only") {
		tm.keys("PageUp")
		tm.waitText("the user denied this command: run part 3 only")
	}
	tm.keys("C-c", "C-c")
	tm.waitText("LOOKOUT-EXITED 0")
}
