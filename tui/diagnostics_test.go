package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// Model-request warnings and client errors stay out of the transcript but
// stay readable: the status bar counts them after the turn that raised
// them ended, and the diagnostics view (f2, !, or a click on the count)
// lists every one with its time, kind, code and whole message.
func TestDiagnosticsViewListsEveryWarningAndError(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 2)
	now := fixedNow
	d := newDriver(t, 120, 30, Options{Source: f, Now: func() time.Time { return now }})
	f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
	d.pull()
	warnAndErrStepwise(t, f, d, &now)
	if s := d.status(); !strings.Contains(s, "5 diagnostics") {
		t.Fatalf("status bar %q lacks the count", s)
	}
	d.noScreen("rate limited") // not in the transcript
	d.keys("f2")
	for _, want := range []string{
		"Diagnostics",
		"00:01:05  warning     rate_limited",
		"model: rate limited · retrying (1/5)",
		"00:01:07  warning     overloaded",
		"00:01:10  client      upstream_frame_error",
		"malformed frame: not valid JSON",
		"00:01:10  client      unknown_item",
		"00:01:11  connection  unreachable",
		"dial tcp 127.0.0.1:7777: connect: connection refused",
	} {
		d.wantScreen(want)
	}
	// The long message is whole, wrapped under its column.
	flat := strings.Join(strings.Fields(d.screen()), " ")
	if !strings.Contains(flat, "the request will be retried with a longer timeout and a smaller context window · retrying (2/5)") {
		t.Fatalf("the long warning is not whole:\n%s", d.screen())
	}
	checkWidths(t, d, 120)
	d.keys("esc")
	d.noScreen("Diagnostics")
	d.wantScreen("answer 2")

	// ! in an empty composer opens it too; in a draft it types.
	d.typeText("!")
	d.wantScreen("Diagnostics")
	d.keys("!")
	d.noScreen("Diagnostics")
	d.typeText("hey!")
	d.noScreen("Diagnostics")
	if d.m.comp.value() != "hey!" {
		t.Fatalf("composer %q", d.m.comp.value())
	}

	// A click on the status bar's count opens it.
	line := d.status()
	x := ansi.StringWidth(line[:strings.Index(line, "5 diagnostics")]) + 2
	d.send(tea.MouseClickMsg{X: x, Y: len(d.lines()) - 1, Button: tea.MouseLeft})
	d.wantScreen("Diagnostics")
}

// warnAndErrStepwise is warnAndErr with a pull after each change.
func warnAndErrStepwise(t *testing.T, f *fakeSource, d *driver, now *time.Time) {
	t.Helper()
	f.frame(model.MethodWarning, obj{"requestKind": "model", "code": "rate_limited", "message": "rate limited",
		"retryable": true, "attempt": 1, "maxAttempts": 5, "willRetry": true, "turnId": "t1"})
	d.pull()
	*now = now.Add(2 * time.Second)
	f.frame(model.MethodWarning, obj{"requestKind": "model", "code": "overloaded", "message": "the model is overloaded; the request will be retried with a longer timeout and a smaller context window",
		"retryable": true, "attempt": 2, "maxAttempts": 5, "willRetry": true, "turnId": "t1"})
	d.pull()
	*now = now.Add(3 * time.Second)
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Errors = []string{"upstream_frame_error: malformed frame: not valid JSON",
			"unknown_item in item/delta (seq 260) item ghost field text: delta for an item never seen"}
		sn.ErrorCount = 2
	})
	d.pull()
	*now = now.Add(time.Second)
	f.edit(func(sn *sync.Picture, _ *model.State) {
		sn.Freshness = sync.Freshness{State: sync.Reconnecting, Attempt: 1, Err: "dial tcp 127.0.0.1:7777: connect: connection refused", Reason: sync.ReasonUnreachable}
	})
	d.pull()
	f.edit(func(sn *sync.Picture, _ *model.State) { sn.Freshness = sync.Freshness{State: sync.Live} })
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t1", "status": "completed"})
	d.pull()
}

func TestSplitCode(t *testing.T) {
	cases := []struct{ in, code, rest string }{
		{"upstream_frame_error: malformed frame", "upstream_frame_error", "malformed frame"},
		{"unknown_item in item/delta (seq 3) item x", "unknown_item", "in item/delta (seq 3) item x"},
		{"turn/submit: backpressured", "turn/submit", "backpressured"},
		{"prompt rejected: too long", "", "prompt rejected: too long"},
		{"no active turn to interrupt", "", "no active turn to interrupt"},
		{"", "", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if code, rest := splitCode(c.in); code != c.code || rest != c.rest {
				t.Errorf("splitCode(%q) = %q, %q; want %q, %q", c.in, code, rest, c.code, c.rest)
			}
		})
	}
}
