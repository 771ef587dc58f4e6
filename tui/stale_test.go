package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

func (d *driver) status() string { return d.lines()[len(d.lines())-1] }

// While the host is unreachable nothing on screen pretends the turn is
// progressing: no spinner frames, no elapsed time ticking; the status bar
// says the turn was running when last seen.
func TestTurnSpinnerStopsWhileHostUnreachable(t *testing.T) {
	for _, st := range []sync.FreshState{sync.Reconnecting, sync.Error, sync.Connecting, sync.Retrying} {
		f := newFake(t)
		f.frame(model.MethodTurnStarted, obj{"turnId": "t1", "startedAt": "2026-01-01T00:00:00Z"})
		f.item(started, obj{"itemId": "a1", "kind": "agentMessage", "text": "half an ans"})
		d := newDriver(t, 100, 20, Options{Source: f})
		d.m.opts.Still = false
		d.wantScreen("running 1:05")
		f.edit(func(sn *sync.Picture, _ *model.State) {
			sn.Freshness = sync.Freshness{State: st, NextAttempt: fixedNow.Add(5 * time.Second), Attempt: 2, Err: "connection refused"}
		})
		d.pull()
		before := d.screen()
		d.send(tickMsg{})
		d.send(tickMsg{})
		if after := d.screen(); after != before {
			t.Fatalf("%s: the screen animates while the host is unreachable:\n%s\n---\n%s", st, before, after)
		}
		s := d.status()
		if strings.Contains(s, "running 1:05") || strings.ContainsAny(s, strings.Join(spinFrames, "")) {
			t.Fatalf("%s: status bar %q still shows a live turn", st, s)
		}
		if !strings.Contains(s, "running when last seen") {
			t.Fatalf("%s: status bar %q", st, s)
		}
		if st != sync.Reconnecting && d.m.animating() {
			t.Fatalf("%s: still animating", st)
		}
	}
}

// Notices about a turn (approved, denied, interrupting) end with it.
func TestTurnNoticesEndWithTheTurn(t *testing.T) {
	f := newFake(t)
	kindsSession(f) // turn t2 runs, ap1 waits
	d := newDriver(t, 160, 40, Options{Source: f})
	d.keys("alt+a")
	if !strings.Contains(d.status(), "approved: Run `rm -rf build/`") {
		t.Fatalf("status %q", d.status())
	}
	f.frame(model.MethodApprovalResolved, obj{"approvalId": "ap1", "decision": "approve"})
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t2", "status": "completed"})
	d.pull()
	if s := d.status(); strings.Contains(s, "approved:") {
		t.Fatalf("the approval notice outlived its turn: %q", s)
	}

	// The queued turn t3 starts; esc interrupts it; it ends stopped.
	f.frame(model.MethodTurnStarted, obj{"turnId": "t3", "startedAt": "2026-01-01T00:00:00Z", "commandId": "c2"})
	d.pull()
	d.keys("esc")
	if !strings.Contains(d.status(), "interrupting") {
		t.Fatalf("status %q", d.status())
	}
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t3", "status": "stopped"})
	d.pull()
	if s := d.status(); strings.Contains(s, "interrupting") || !strings.Contains(s, "last turn stopped") {
		t.Fatalf("status %q, want last turn stopped and no interrupting", s)
	}

	// ctrl+c's notice keeps what is still true: a second ctrl+c quits.
	f.frame(model.MethodTurnStarted, obj{"turnId": "t4", "startedAt": "2026-01-01T00:00:00Z"})
	d.pull()
	d.keys("ctrl+c")
	f.frame(model.MethodTurnCompleted, obj{"turnId": "t4", "status": "stopped"})
	d.pull()
	if s := d.status(); strings.Contains(s, "interrupting") || !strings.Contains(s, "ctrl+c again quits") {
		t.Fatalf("status %q", s)
	}
}

func TestNoticeOutlived(t *testing.T) {
	running := &model.View{ActiveTurn: &model.ActiveTurn{TurnID: "t1"}}
	other := &model.View{ActiveTurn: &model.ActiveTurn{TurnID: "t2"}}
	idle := &model.View{}
	cases := []struct {
		turn string
		v    *model.View
		want bool
	}{
		{"", idle, false}, // not about a turn
		{"t1", nil, false},
		{"t1", running, false},
		{"t1", idle, true},
		{"t1", other, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint("turn ", c.turn, " want ", c.want), func(t *testing.T) {
			if got := noticeOutlived(c.turn, c.v); got != c.want {
				t.Errorf("noticeOutlived(%q, %+v) = %v, want %v", c.turn, c.v, got, c.want)
			}
		})
	}
}
