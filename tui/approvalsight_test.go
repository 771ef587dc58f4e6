package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// hugeApprovalSession is a running turn whose shell command, about 1,300
// characters (the demo's), waits for approval; the summary repeats it, as
// Codex's and Claude Code's bridges do.
func hugeApprovalSession(f *fakeSource, options []string) string {
	cmd := host.DemoHugeCommand()
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c0"})
	f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "commandId": "c0", "text": "run the test matrix"})
	f.item(started, obj{"itemId": "big", "kind": "toolCall", "status": "waitingUser", "toolName": "bash",
		"input": obj{"command": cmd}})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap1", "turnId": "t1", "itemId": "big",
		"summary": "Run: " + cmd, "options": options})
	return cmd
}

// TestApproveShowsAHugeCommandWholeFirst: at 80x24 a 1,300-character
// command waiting for approval does not fit; the approve key first shows
// it, page by page, and approves only once every part of it has been on
// screen (issue 25: alt+a approved a command whose end was never shown).
func TestApproveShowsAHugeCommandWholeFirst(t *testing.T) {
	f := newFake(t)
	cmd := hugeApprovalSession(f, []string{"approve", "deny"})
	d := newDriver(t, 80, 24, Options{Source: f})
	d.wantScreen("Approval needed: bash")
	first := d.screen()
	if !slices.ContainsFunc(strings.Fields(cmd), func(w string) bool { return !strings.Contains(first, w) }) {
		t.Fatal("the test needs a command that does not fit the first screen")
	}
	seen := d.screen()
	presses := 0
	for ; presses < 30 && !hasCall(f, "respond:ap1:approve"); presses++ {
		for _, l := range d.lines() {
			if ansi.StringWidth(l) > 80 {
				t.Fatalf("a line is wider than the screen: %q", l)
			}
		}
		seen += "\n" + d.screen()
		d.keys("alt+a")
	}
	if !hasCall(f, "respond:ap1:approve") {
		t.Fatalf("approve never acted after %d presses; screen:\n%s", presses, d.screen())
	}
	if presses < 2 {
		t.Fatalf("approved at the first press, with the command's end never on screen")
	}
	for _, word := range strings.Fields(cmd) {
		if !strings.Contains(seen, word) {
			t.Errorf("approved before %q was ever on screen", word)
		}
	}
	d.noScreen("Review before approving")
}

// TestReviewEscGoesBackWithoutAnswering: esc leaves the review, nothing
// is sent, and the next approve key opens it again at its top.
func TestReviewEscGoesBackWithoutAnswering(t *testing.T) {
	f := newFake(t)
	hugeApprovalSession(f, []string{"approve", "approveForSession", "deny"})
	d := newDriver(t, 80, 24, Options{Source: f})
	d.keys("alt+s")
	d.wantScreen("Review before approving: bash")
	d.keys("esc")
	d.noScreen("Review before approving")
	d.wantScreen("not answered: the approval still waits")
	if len(f.Calls()) != 0 {
		t.Fatalf("calls %v", f.Calls())
	}
	d.keys("alt+s")
	d.wantScreen("Review before approving: bash")
	if d.m.overlayOff != 0 {
		t.Fatalf("the review opened at line %d, not its top", d.m.overlayOff)
	}
}

// TestApprovalBarKeysAreNotCutAt80Columns: every key hint of the bar is
// on screen whole at 80 columns, wrapped onto a line of its own when the
// first is full (it was cut at "(a/s/d in the tr").
func TestApprovalBarKeysAreNotCutAt80Columns(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.item(started, obj{"itemId": "tool", "kind": "toolCall", "status": "waitingUser", "toolName": "bash", "input": obj{"command": "ls"}})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap1", "turnId": "t1", "itemId": "tool",
		"summary": "Run: ls", "options": []string{"approve", "approveForSession", "deny"}})
	d := newDriver(t, 80, 24, Options{Source: f})
	for _, hint := range []string{"alt+a approve", "alt+s approve for the session", "alt+d deny (+ reason)", "(a/s/d in the transcript)"} {
		d.wantScreen(hint)
	}
	// A short command fits: approve acts at once.
	d.keys("alt+a")
	if !hasCall(f, "respond:ap1:approve") {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestApproveStep(t *testing.T) {
	cases := []struct {
		seen, reviewing bool
		want            approveAction
	}{
		{true, false, approveNow},
		{true, true, approveNow},
		{false, false, approveReview},
		{false, true, approveMore},
	}
	for _, c := range cases {
		if got := approveStep(c.seen, c.reviewing); got != c.want {
			t.Errorf("approveStep(seen %v, reviewing %v) = %v, want %v", c.seen, c.reviewing, got, c.want)
		}
	}
}

func TestApprovalSightNeedsEveryLine(t *testing.T) {
	k := sightKey{approvalID: "a", version: 3, width: 80}
	var s approvalSight
	s.shownLines(k, 0, 10, 25)
	s.shownLines(k, 15, 25, 25) // jumped to the end: 10-14 never shown
	if s.seenWhole(k) {
		t.Fatal("whole with lines 10-14 never on screen")
	}
	s.shownLines(k, 8, 16, 25)
	if !s.seenWhole(k) {
		t.Fatal("not whole once every line was on screen")
	}
	if s.seenWhole(sightKey{approvalID: "a", version: 4, width: 80}) {
		t.Fatal("a changed item counts as seen")
	}
	s.shownLines(sightKey{approvalID: "a", version: 4, width: 80}, 0, 5, 25)
	if s.seenWhole(k) || s.seenWhole(sightKey{approvalID: "a", version: 4, width: 80}) {
		t.Fatal("a new look kept the old one")
	}
	var w approvalSight
	w.shownWhole(k)
	if !w.seenWhole(k) || w.seenWhole(sightKey{approvalID: "b", width: 80}) {
		t.Fatal("shownWhole is about its key only")
	}
}

func TestPackHints(t *testing.T) {
	cases := []struct {
		hints []string
		width int
		want  []string
	}{
		{[]string{"aa", "bb", "cc"}, 20, []string{"  aa  bb  cc"}},
		{[]string{"aa", "bb", "cc"}, 10, []string{"  aa  bb", "  cc"}},
		{[]string{"aaaaaaaaaaaa", "b"}, 8, []string{"  aaaaaaaaaaaa", "  b"}},
		{nil, 10, nil},
	}
	for _, c := range cases {
		got := packHints(c.hints, "  ", "  ", c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("packHints(%q, %d) = %q, want %q", c.hints, c.width, got, c.want)
		}
	}
}

func TestHeadLines(t *testing.T) {
	cases := []struct {
		head  string
		width int
		lines int
		whole bool
	}{
		{"⚠ Approval needed: bash · Run: ls", 80, 1, true},
		{"⚠ Approval needed: shell · Run: /bin/bash -lc 'echo hi' (The user asked to run this command.)", 60, 2, true},
		{"⚠ Approval needed: bash · Run: " + strings.Repeat("x ", 100), 60, 2, false},
	}
	for _, c := range cases {
		got, whole := headLines(c.head, c.width)
		if len(got) != c.lines || whole != c.whole {
			t.Errorf("headLines(%q, %d) = %d lines, whole %v; want %d, %v", c.head, c.width, len(got), whole, c.lines, c.whole)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > c.width {
				t.Errorf("headLines(%q, %d): line %q is too wide", c.head, c.width, l)
			}
		}
	}
}
