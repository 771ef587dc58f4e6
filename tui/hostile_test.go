package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext/termtexttest"
)

// seen starts every hostile text, so a test can tell that the text did
// reach the place it checks (and was not cut off the screen).
const seen = "SEEN "

// checkHostile asserts the UI's picture carries nothing of a hostile
// input raw: the window title is one line with no control character, and
// the content holds no escape sequence but the program's own styling.
func checkHostile(t *testing.T, c termtexttest.Case, d *driver, where string) {
	t.Helper()
	v := d.m.View()
	if err := termtexttest.CheckLine(v.WindowTitle); err != nil {
		t.Errorf("%s, %s: window title %q: %v", c.Name, where, v.WindowTitle, err)
	}
	if err := termtexttest.CheckStyled(v.Content, termtexttest.Cases()); err != nil {
		t.Errorf("%s, %s: screen: %v", c.Name, where, err)
	}
	if !strings.Contains(d.screen(), strings.TrimSpace(seen)) {
		t.Errorf("%s, %s: the text is not on screen:\n%s", c.Name, where, d.screen())
	}
}

// TestHostileSessionTitle: a session title holding control characters or
// escape sequences (an OSC 52 clipboard write, say) reaches neither the
// terminal window title nor the status bar raw.
func TestHostileSessionTitle(t *testing.T) {
	for _, c := range termtexttest.Cases() {
		f := newFake(t)
		f.frame(model.MethodSessionState, obj{"title": seen + c.In})
		d := newDriver(t, 200, 10, Options{Source: f})
		checkHostile(t, c, d, "title")
		if title := d.m.View().WindowTitle; !strings.HasPrefix(title, "lookout · "+seen) {
			t.Errorf("%s: window title %q", c.Name, title)
		}
	}
}

// TestHostileTranscript: every item kind, with a hostile text in each of
// its string fields, collapsed and expanded.
func TestHostileTranscript(t *testing.T) {
	for _, c := range termtexttest.Cases() {
		s := seen + c.In
		f := newFake(t)
		f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": s})
		f.item(completed, obj{"itemId": "r1", "kind": "reasoning", "status": "completed", "summary": []string{s, "**" + s + "**\n" + s}})
		f.item(completed, obj{"itemId": "a1", "kind": "agentMessage", "status": "completed", "text": "# " + s + "\n\n" + s + "\n\n```\n" + s + "\n```\n"})
		f.item(completed, obj{"itemId": "tc1", "kind": "toolCall", "status": "failed", "toolName": s,
			"inputText": s, "input": obj{"command": s}, "output": s, "exitCode": 1, "error": obj{"message": s}, "truncated": []string{s}})
		f.item(started, obj{"itemId": "tc2", "kind": "toolCall", "status": "inputStreaming", "toolName": s, "inputText": s})
		f.item(completed, obj{"itemId": "cc1", "kind": "contextCompaction", "status": "failed"})
		f.item(completed, obj{"itemId": "e1", "kind": "error", "status": "failed", "message": s})
		f.item(completed, obj{"itemId": "x1", "kind": "webSearch", "status": s, "query": s, s: s, "nested": obj{s: s}})
		f.item(started, obj{"itemId": "a2", "kind": "agentMessage", "text": ""})
		f.delta("a2", "text", s)
		f.edit(func(_ *sync.Picture, st *model.State) { st.Submit("c9", s, 0) })
		d := newDriver(t, 100, 200, Options{Source: f})
		checkHostile(t, c, d, "collapsed")
		d.keys("tab")
		for i := 0; i < 12; i++ {
			d.keys("enter", "up")
		}
		checkHostile(t, c, d, "expanded")
	}
}

// TestHostileChrome: banners (sync error texts), the newest warning, the
// last turn's error, the approval bar and the notice after answering it.
func TestHostileChrome(t *testing.T) {
	for _, c := range termtexttest.Cases() {
		s := seen + c.In
		for _, st := range []sync.FreshState{sync.Reconnecting, sync.Error, sync.Retrying, sync.FreshState(s)} {
			f := newFake(t)
			f.edit(func(sn *sync.Picture, _ *model.State) {
				sn.Freshness = sync.Freshness{State: st, Err: s, Attempt: 2}
				sn.Errors = []string{s}
			})
			d := newDriver(t, 300, 12, Options{Source: f})
			checkHostile(t, c, d, "banner "+ansi.Strip(string(st)))
		}

		f := newFake(t)
		f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		f.frame(model.MethodWarning, obj{"requestKind": s, "code": s, "message": s, "willRetry": true, "attempt": 1, "maxAttempts": 3, "turnId": "t1"})
		d := newDriver(t, 600, 12, Options{Source: f, Host: s, SessionID: s})
		checkHostile(t, c, d, "warning")

		// The diagnostics view: a warning, a client error and a connection
		// error, all from the host.
		f.edit(func(sn *sync.Picture, _ *model.State) {
			sn.Errors, sn.ErrorCount = []string{s, "unknown_item: " + s}, 2
			sn.Freshness = sync.Freshness{State: sync.Error, Err: s, Reason: s}
		})
		d = newDriver(t, 300, 40, Options{Source: f, Host: s, SessionID: s})
		d.keys("f2")
		checkHostile(t, c, d, "diagnostics view")

		f = newFake(t)
		f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		f.frame(model.MethodTurnCompleted, obj{"turnId": "t1", "status": "failed", "error": obj{"code": "x", "message": s}})
		d = newDriver(t, 600, 12, Options{Source: f})
		checkHostile(t, c, d, "turn error")

		// A prompt whose launch failed, with the host's reason, as a row.
		f = newFake(t)
		d = newDriver(t, 300, 20, Options{Source: f})
		d.typeText("go")
		d.keys("enter")
		f.frame(model.MethodTurnCompleted, obj{"turnId": "t9", "status": "failed", "error": obj{"code": "x", "message": s}})
		f.edit(func(_ *sync.Picture, st *model.State) { st.Ack("c1", "started", "t9") })
		d.pull()
		checkHostile(t, c, d, "failed prompt")

		f = newFake(t)
		f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		f.item(started, obj{"itemId": "tool", "kind": "toolCall", "status": "waitingUser", "toolName": s, "input": obj{"command": s}})
		f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap1", "turnId": "t1", "itemId": "tool", "summary": s, "options": []string{"approve", "deny"}})
		d = newDriver(t, 600, 30, Options{Source: f})
		checkHostile(t, c, d, "approval bar")
		d.keys("alt+a")
		checkHostile(t, c, d, "approval notice")
	}
}

// TestHostilePicker: the session picker lists titles, ids, statuses and
// times from the host.
func TestHostilePicker(t *testing.T) {
	for _, c := range termtexttest.Cases() {
		s := seen + c.In
		ss := []sync.SessionInfo{
			{SessionID: "a" + s, Title: s, Status: s, UpdatedAt: "2026-02-01" + s},
			{SessionID: "b" + s, Title: s, Status: s, UpdatedAt: "2026-01-01" + s},
		}
		p, err := NewPicker(ss, s, "dark")
		if err != nil {
			t.Fatal(err)
		}
		p.Update(keyMsg("down")) // one row highlighted, one not
		p.Update(keyMsg("up"))
		content := p.View().Content
		if err := termtexttest.CheckStyled(content, termtexttest.Cases()); err != nil {
			t.Errorf("%s: picker: %v", c.Name, err)
		}
		if n := strings.Count(ansi.Strip(content), strings.TrimSpace(seen)); n < 7 {
			t.Errorf("%s: the texts are not on screen (%d):\n%s", c.Name, n, ansi.Strip(content))
		}
	}
}

// TestApprovalShowsWholeCommand: a bare CR cannot hide the start of what
// is approved: the approval bar, the tool card and the notice after
// answering show "rm -rf ~␍ls", all of it.
func TestApprovalShowsWholeCommand(t *testing.T) {
	f := newFake(t)
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	f.item(started, obj{"itemId": "tool", "kind": "toolCall", "status": "waitingUser", "toolName": "bash", "input": obj{"command": "rm -rf ~\rls"}})
	f.frame(model.MethodApprovalRequested, obj{"approvalId": "ap1", "turnId": "t1", "itemId": "tool", "summary": "Run rm -rf ~\rls", "options": []string{"approve", "deny"}})
	d := newDriver(t, 100, 30, Options{Source: f})
	if l := d.lineOf("Approval needed"); l < 0 || !strings.Contains(d.lines()[l], "Run rm -rf ~␍ls") {
		t.Fatalf("approval bar does not show the whole summary:\n%s", d.screen())
	}
	d.wantScreen("$ rm -rf ~␍ls")
	d.keys("alt+a")
	d.wantScreen("approved: Run rm -rf ~␍ls")
	if strings.Contains(d.m.View().Content, "\r") {
		t.Fatal("a raw CR reached the screen")
	}
}

// TestHostileSearchAndTimes: a hostile prompt found by a search (its
// matches highlighted), a hostile recordedAt, and a hostile query typed
// or pasted into the search line reach the screen only as visible text.
func TestHostileSearchAndTimes(t *testing.T) {
	for _, c := range termtexttest.Cases() {
		s := seen + c.In
		f := newFake(t)
		f.item(completed, obj{"itemId": "u1", "kind": "userMessage", "status": "completed", "text": s, "recordedAt": c.In})
		// (A bare CR shows what a terminal would: the text after it.)
		f.item(completed, obj{"itemId": "a1", "kind": "agentMessage", "status": "completed", "text": seen + "\n\n" + s})
		d := newDriver(t, 200, 20, Options{Source: f})
		d.keys("ctrl+f")
		d.typeText("seen")
		d.keys("enter")
		checkHostile(t, c, d, "search")
		d.keys("/")
		d.m.srch.query += c.In // as if typed through a terminal that passed it
		d.m.dirty = true
		d.pull()
		checkHostile(t, c, d, "search line")
	}
}

// TestWindowTitleFollowsTheSession: the window title is the session's
// title from the next frame on, and "lookout" while it has none.
func TestWindowTitleFollowsTheSession(t *testing.T) {
	f := newFake(t)
	d := newDriver(t, 80, 10, Options{Source: f})
	if title := d.m.View().WindowTitle; title != "lookout" {
		t.Fatalf("with no session title: window title %q, want %q", title, "lookout")
	}
	f.frame(model.MethodSessionState, obj{"title": "fix the build"})
	d.pull()
	if title := d.m.View().WindowTitle; title != "lookout · fix the build" {
		t.Errorf("after the title arrived: window title %q", title)
	}
	f.frame(model.MethodSessionState, obj{"title": "ship it"})
	d.pull()
	if title := d.m.View().WindowTitle; title != "lookout · ship it" {
		t.Errorf("after the title changed: window title %q", title)
	}
}
