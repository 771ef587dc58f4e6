package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
)

// TestDenyAsksForAReason: the deny key opens a one-line reason; enter
// denies with what was typed, and nothing is sent before (issue 25).
func TestDenyAsksForAReason(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 80, 24, Options{Source: f})
	d.keys("alt+d")
	d.wantScreen("tell the agent what to do instead")
	d.wantScreen("esc back to the approval")
	d.typeText("use make clean")
	if len(f.Calls()) != 0 {
		t.Fatalf("sent before enter: %v", f.Calls())
	}
	d.wantScreen("use make clean")
	d.keys("backspace")
	d.typeText("n; then test")
	d.keys("enter")
	if !hasCall(f, "deny:ap1:use make clean; then test") {
		t.Fatalf("calls %v", f.Calls())
	}
	d.wantScreen("denied: Run `rm -rf build/`")
	d.noScreen("tell the agent what to do instead")
}

// TestDenyReasonEscGoesBack: esc closes the reason line and returns to
// the approval with nothing sent; the draft and composer are untouched.
func TestDenyReasonEscGoesBack(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 80, 24, Options{Source: f})
	d.typeText("my draft")
	d.keys("alt+d")
	d.typeText("never mind")
	d.keys("esc")
	if len(f.Calls()) != 0 {
		t.Fatalf("esc sent %v", f.Calls())
	}
	d.noScreen("tell the agent what to do instead")
	d.wantScreen("alt+a approve")
	d.wantScreen("not denied: the approval still waits")
	if got := d.m.comp.value(); got != "my draft" {
		t.Fatalf("the draft is %q", got)
	}
	// An empty reason is fine; a paste becomes one line.
	d.keys("alt+d")
	d.send(tea.PasteMsg{Content: "first\nsecond"})
	d.keys("enter")
	if !hasCall(f, "deny:ap1:first second") {
		t.Fatalf("calls %v", f.Calls())
	}
}

// TestDenyReasonDroppedWhenAnsweredElsewhere: an approval resolved while
// its reason is typed closes the line, and enter sends nothing.
func TestDenyReasonDroppedWhenAnsweredElsewhere(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 80, 24, Options{Source: f})
	d.keys("alt+d")
	d.typeText("too late")
	f.frame(model.MethodApprovalResolved, obj{"approvalId": "ap1", "decision": "approve"})
	d.pull()
	d.wantScreen("reason not sent")
	d.keys("enter")
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "deny:") {
			t.Fatalf("sent %q for a resolved approval", c)
		}
	}
}
