package tui

import (
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// missingSession puts the fake in the state sync publishes for a session
// the host does not know.
func missingSession(f *fakeSource) {
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Freshness = sync.Freshness{State: sync.Error, Reason: sync.ReasonNoSession, Err: "the host does not know session nope"}
	})
}

// attach --session with an unknown id: the screen says the session does
// not exist and offers the picker; a prompt typed there is not sent and
// stays in the composer (nothing pretends to be sending); ctrl+o leaves
// for the picker, handing the draft over.
func TestMissingSessionIsFinalAndOffersThePicker(t *testing.T) {
	f := newFake(t)
	missingSession(f)
	d := newDriver(t, 100, 20, Options{Source: f, OfferSessions: true})
	d.wantScreen("Session not found: the host does not know session nope")
	d.wantScreen("ctrl+o choose another session")
	d.typeText("hello?")
	d.keys("enter")
	if len(f.Calls()) != 0 {
		t.Fatalf("a prompt was sent to a session that does not exist: %v", f.Calls())
	}
	d.pull()
	d.noScreen("sending…")
	d.noScreen("retrying…")
	d.wantScreen("not sent")
	if got := d.m.comp.value(); got != "hello?" {
		t.Fatalf("composer %q", got)
	}
	d.keys("ctrl+o")
	if !d.qt || !d.m.SwitchSession() {
		t.Fatalf("ctrl+o: quit %v, switch %v", d.qt, d.m.SwitchSession())
	}
	if d.m.Draft() != "hello?" {
		t.Fatalf("the draft was not handed over: %q", d.m.Draft())
	}
	// The next session's model starts with it.
	g := newFake(t)
	d2 := newDriver(t, 100, 20, Options{Source: g, Draft: d.m.Draft()})
	if got := d2.m.comp.value(); got != "hello?" {
		t.Fatalf("the draft did not arrive: %q", got)
	}
}

// Without a picker to go back to (lookout with its demo session), the
// banner offers the retry, and ctrl+o says why it cannot.
func TestMissingSessionWithoutPicker(t *testing.T) {
	f := newFake(t)
	missingSession(f)
	d := newDriver(t, 100, 20, Options{Source: f})
	d.wantScreen("Session not found")
	d.wantScreen("ctrl+r to retry")
	d.keys("ctrl+o")
	if d.qt {
		t.Fatal("ctrl+o quit without a picker")
	}
	d.wantScreen("lookout attach")
}

// Switching sessions never drops a prompt still being sent.
func TestChooseAnotherSessionKeepsPromptsInFlight(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 2)
	d := newDriver(t, 100, 20, Options{Source: f, OfferSessions: true})
	d.typeText("in flight")
	d.keys("enter")
	d.pull()
	d.keys("ctrl+o")
	if d.qt {
		t.Fatal("left the session while a prompt was being sent")
	}
	d.wantScreen("wait until")
	f.frame(model.MethodTurnStarted, obj{"turnId": "t9", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c1"})
	f.item(completed, obj{"itemId": "um", "kind": "userMessage", "status": "completed", "commandId": "c1", "text": "in flight", "turnId": "t9"})
	d.pull()
	d.keys("ctrl+o")
	if !d.qt || !d.m.SwitchSession() {
		t.Fatal("ctrl+o did not leave once nothing was in flight")
	}
}
