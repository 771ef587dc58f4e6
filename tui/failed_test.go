package tui

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// A prompt whose turn fails to launch does not vanish: it stays in the
// transcript where it was sent, marked failed with the host's reason, and
// e (alt+e anywhere) puts its text back in the composer.
func TestLaunchFailedPromptStaysVisibleAndRecoverable(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 2)
	d := newDriver(t, 100, 30, Options{Source: f})
	d.typeText("deploy to staging")
	d.keys("enter")
	d.pull()
	d.wantScreen("sending…")
	// The host fails the launch: a failed turn/completed that never
	// started, then the submit's answer.
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t9", "status": "failed",
		"error": obj{"code": "launchFailed", "message": "the agent could not start: codex not found"}})
	f.edit(func(_ *sync.Picture, st *model.State) { st.Ack("c1", "started", "t9") })
	d.pull()
	d.wantScreen("deploy to staging")
	d.wantScreen("not run")
	d.wantScreen("the agent could not start: codex not found")
	if a, p := d.lineOf("answer 2"), d.lineOf("deploy to staging"); a < 0 || p < a {
		t.Fatalf("the failed prompt is not where it was sent (after answer 2):\n%s", d.screen())
	}
	// It is a row: it can be selected, and e takes its text back.
	d.typeText("and then")
	d.keys("tab")
	row, ok := d.m.tr.selectedRow()
	if !ok || row.Pending == nil || row.Pending.Text != "deploy to staging" {
		t.Fatalf("selected %+v", row)
	}
	d.keys("e")
	if got := d.m.comp.value(); got != "deploy to staging\nand then" {
		t.Fatalf("composer %q", got)
	}
	if d.m.focus != focusComposer {
		t.Fatal("e did not focus the composer")
	}
	if strings.Count(d.screen(), "deploy to staging") != 1 {
		t.Fatalf("the failed entry did not leave when its text came back:\n%s", d.screen())
	}
}

// A rejected prompt stays too, with the rejection's reason; alt+e (from
// the composer) takes the newest failed prompt back.
func TestRejectedPromptStaysVisible(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 100, 30, Options{Source: f})
	d.typeText("too long")
	d.keys("enter")
	f.edit(func(_ *sync.Picture, st *model.State) {
		st.Retire("c1", model.RetiredRejected, "the prompt is over the limit")
	})
	d.pull()
	d.wantScreen("too long")
	d.wantScreen("the prompt is over the limit")
	d.keys("alt+e")
	if got := d.m.comp.value(); got != "too long" {
		t.Fatalf("composer %q", got)
	}
	d.keys("alt+e")
	d.wantScreen("no failed prompt")
}
