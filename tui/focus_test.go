package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// Tab from a draft visibly moves focus, and from then on typing never
// acts on the transcript by surprise: the approving and unqueueing
// letters do nothing but say what would (their alt+ forms work), and q
// asks before discarding the draft.
func TestTypingAfterTabNeverApprovesOrQuits(t *testing.T) {
	f := newFake(t)
	kindsSession(f) // ap1 waits; a prompt is queued
	d := newDriver(t, 120, 40, Options{Source: f})
	d.wantScreen("prompt ─")
	d.typeText("please also")
	d.keys("tab")
	d.wantScreen("transcript focused")
	d.noScreen("prompt ─")
	// The rest of the sentence lands on the transcript.
	d.typeText(" and add tests, use the stable database") // no i: i goes back to the draft
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "respond:") || strings.HasPrefix(c, "unqueue:") {
			t.Fatalf("typing in the transcript with a draft waiting ran %s", c)
		}
	}
	if d.qt {
		t.Fatal("typing quit")
	}
	if got := d.m.comp.value(); got != "please also" {
		t.Fatalf("the draft changed: %q", got)
	}
	d.keys("a")
	if s := d.status(); !strings.Contains(s, "alt+a approves (a is off while a draft waits)") {
		t.Fatalf("status %q", s)
	}
	// The alt+ form is deliberate, and works.
	d.keys("alt+a")
	if !hasCall(f, "respond:ap1:approve") {
		t.Fatalf("alt+a: calls %v", f.Calls())
	}
	// q asks; anything but y keeps the draft.
	d.keys("q")
	if d.qt {
		t.Fatal("q quit with a draft waiting")
	}
	d.wantScreen("Discard the draft and 2 prompts not sent yet, and quit?")
	d.keys("n")
	d.noScreen("Discard the draft")
	if d.qt || d.m.comp.value() != "please also" {
		t.Fatalf("quit %v, draft %q", d.qt, d.m.comp.value())
	}
	d.keys("q", "y")
	if !d.qt {
		t.Fatal("q then y did not quit")
	}
}

// With an empty composer the transcript's letters act at once, as before.
func TestTranscriptLettersActWithoutADraft(t *testing.T) {
	f := newFake(t)
	kindsSession(f)
	d := newDriver(t, 120, 40, Options{Source: f})
	d.keys("tab", "a")
	if !hasCall(f, "respond:ap1:approve") {
		t.Fatalf("calls %v", f.Calls())
	}
	// Two of the session's prompts have no answer from the host yet: q
	// says they would be lost, and only y quits.
	d.keys("q")
	d.wantScreen("Quit and drop 2 prompts not sent yet?")
	d.keys("n")
	if d.qt {
		t.Fatal("q quit while prompts were still sending")
	}
	d.wantScreen("still sending 2 prompts not sent yet")
	d.keys("q", "y")
	if !d.qt {
		t.Fatal("q then y did not quit")
	}
}

// With nothing at stake, q quits at once.
func TestQuitWithNothingAtStake(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 3)
	d := newDriver(t, 120, 40, Options{Source: f})
	d.keys("tab", "q")
	if !d.qt {
		t.Fatal("q did not quit")
	}
}

// ctrl+c never loses a draft on the way to quitting: it interrupts a
// running turn first, then clears the draft into history (up brings it
// back), and only quits when there is nothing left to lose.
func TestCtrlCNeverLosesADraft(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	d := newDriver(t, 100, 24, Options{Source: f})
	d.typeText("half a thought")
	d.keys("tab") // the transcript has focus: the draft must survive anyway
	d.keys("ctrl+c")
	if countCalls(f, "interrupt") != 1 || d.qt || d.m.comp.value() != "half a thought" {
		t.Fatalf("first ctrl+c: calls %v quit %v draft %q", f.Calls(), d.qt, d.m.comp.value())
	}
	d.keys("ctrl+c")
	if d.qt {
		t.Fatal("the second ctrl+c quit and lost the draft")
	}
	if d.m.comp.value() != "" {
		t.Fatalf("draft %q", d.m.comp.value())
	}
	d.wantScreen("brings it back")
	d.keys("ctrl+c")
	if !d.qt {
		t.Fatal("ctrl+c with nothing left to lose did not quit")
	}
	d.qt = false
	d.keys("i", "up")
	if got := d.m.comp.value(); got != "half a thought" {
		t.Fatalf("up brought back %q", got)
	}
}

func TestDraftGate(t *testing.T) {
	cases := []struct {
		action string
		draft  bool
		want   gate
	}{
		{"quit", false, gateAct},
		{"quit", true, gateConfirm},
		{"approve", true, gateRefuse},
		{"deny", true, gateRefuse},
		{"approveForSession", true, gateRefuse},
		{"unqueue", true, gateRefuse},
		{"approve", false, gateAct},
		{"copy", true, gateAct},
		{"select", true, gateAct},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.action, " draft=", c.draft), func(t *testing.T) {
			if got := draftGate(c.action, c.draft); got != c.want {
				t.Errorf("draftGate(%q, %v) = %v, want %v", c.action, c.draft, got, c.want)
			}
		})
	}
}

func TestCtrlCNotice(t *testing.T) {
	cases := []struct {
		done, next ctrlCAction
		unsent     int
		want       string
	}{
		{ctrlCArm, ctrlCQuit, 0, "ctrl+c again quits"},
		{ctrlCArm, ctrlCClear, 0, "ctrl+c again clears the draft"},
		{ctrlCInterrupt, ctrlCQuit, 0, "interrupting · ctrl+c again quits"},
		{ctrlCInterrupt, ctrlCClear, 0, "interrupting · ctrl+c again clears the draft"},
		{ctrlCClear, ctrlCQuit, 0, "draft cleared (↑ in the composer brings it back) · ctrl+c again quits"},
		{ctrlCArm, ctrlCQuit, 1, "ctrl+c again quits and drops 1 prompt not sent yet"},
		{ctrlCClear, ctrlCQuit, 2, "draft cleared (↑ in the composer brings it back) · ctrl+c again quits and drops 2 prompts not sent yet"},
		{ctrlCArm, ctrlCClear, 1, "ctrl+c again clears the draft"},
	}
	for _, c := range cases {
		if got := ctrlCNotice(c.done, c.next, c.unsent); got != c.want {
			t.Errorf("ctrlCNotice(%v, %v, %d) = %q, want %q", c.done, c.next, c.unsent, got, c.want)
		}
	}
}

func TestQuitQuestion(t *testing.T) {
	cases := []struct {
		draft  bool
		unsent int
		want   string
	}{
		{true, 0, "Discard the draft and quit? y quits · any other key keeps it "},
		{false, 1, "Quit and drop 1 prompt not sent yet? y quits · any other key stays "},
		{true, 3, "Discard the draft and 3 prompts not sent yet, and quit? y quits · any other key keeps them "},
	}
	for _, c := range cases {
		if got := quitQuestion(c.draft, c.unsent); got != c.want {
			t.Errorf("quitQuestion(%v, %d) = %q, want %q", c.draft, c.unsent, got, c.want)
		}
	}
}

// Every step of the ladder says what the next press really does: after an
// interrupt with a draft waiting, that is clearing the draft, also once
// the turn has ended (issue 25, 4).
func TestCtrlCHintTellsTheNextStep(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	d := newDriver(t, 100, 24, Options{Source: f})
	d.typeText("a draft")
	d.keys("ctrl+c")
	if s := d.status(); !strings.Contains(s, "interrupting · ctrl+c again clears the draft") {
		t.Fatalf("after the interrupt: status %q", s)
	}
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t1", "status": "stopped"})
	d.pull()
	if s := d.status(); !strings.Contains(s, "ctrl+c again clears the draft") || strings.Contains(s, "again quits") {
		t.Fatalf("after the turn ended: status %q", s)
	}
	d.keys("ctrl+c")
	if d.qt || d.m.comp.value() != "" {
		t.Fatalf("the second ctrl+c quit %v, draft %q", d.qt, d.m.comp.value())
	}
	if s := d.status(); !strings.Contains(s, "draft cleared") || !strings.Contains(s, "ctrl+c again quits") {
		t.Fatalf("after clearing: status %q", s)
	}
	d.keys("ctrl+c")
	if !d.qt {
		t.Fatal("the third ctrl+c did not quit")
	}
}

func TestCtrlCStep(t *testing.T) {
	cases := []struct {
		armed, running, draft bool
		want                  ctrlCAction
	}{
		{false, false, false, ctrlCArm},
		{true, false, false, ctrlCQuit},
		{false, true, false, ctrlCInterrupt},
		{true, true, false, ctrlCQuit},
		{false, false, true, ctrlCClear},
		{true, false, true, ctrlCClear},
		{false, true, true, ctrlCInterrupt},
		{true, true, true, ctrlCClear},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("armed=%v running=%v draft=%v", c.armed, c.running, c.draft), func(t *testing.T) {
			if got := ctrlCStep(c.armed, c.running, c.draft); got != c.want {
				t.Errorf("ctrlCStep(armed %v, running %v, draft %v) = %v, want %v", c.armed, c.running, c.draft, got, c.want)
			}
		})
	}
}
