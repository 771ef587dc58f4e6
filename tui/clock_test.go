package tui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func TestClockDue(t *testing.T) {
	at := func(min, sec int) time.Time {
		return fixedNow.Add(time.Duration(min)*time.Minute + time.Duration(sec)*time.Second)
	}
	cases := []struct {
		name         string
		change, last time.Time
		want         time.Time
	}{
		{"no stamp will change: no redraw", time.Time{}, at(0, 0), time.Time{}},
		{"never redrawn: at the change", at(0, 25), time.Time{}, at(0, 25)},
		{"the change a minute after the last redraw or later: at the change", at(2, 0), at(0, 30), at(2, 0)},
		{"the change sooner: a minute after the last redraw", at(0, 40), at(0, 10), at(1, 10)},
		{"the change overdue: a minute after the last redraw", at(0, 0), at(0, 10), at(1, 10)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := clockDue(c.change, c.last); !got.Equal(c.want) {
				t.Fatalf("clockDue = %v, want %v", got, c.want)
			}
		})
	}
}

func TestClockArm(t *testing.T) {
	soon, late := fixedNow.Add(time.Minute), fixedNow.Add(time.Hour)
	cases := []struct {
		name       string
		due, armed time.Time
		want       bool
	}{
		{"nothing due, none set", time.Time{}, time.Time{}, false},
		{"nothing due, one set: it rings and finds nothing", time.Time{}, soon, false},
		{"due, none set", soon, time.Time{}, true},
		{"due sooner than the one set", soon, late, true},
		{"due when the one set rings", soon, soon, false},
		{"due later than the one set: that one rings first", late, soon, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := clockArm(c.due, c.armed); got != c.want {
				t.Fatalf("clockArm = %v, want %v", got, c.want)
			}
		})
	}
}

// The clock redraws the frame when a stamp has moved on, and sets its
// next timer no sooner than a minute later.
func TestClockRedrawsTimes(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 1)
	now := fixedNow
	d := newDriver(t, 80, 20, Options{Source: f, Now: func() time.Time { return now }})
	var asked []time.Duration
	d.m.after = func(dur time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		asked = append(asked, dur)
		return nil
	}
	d.wantScreen("1 min ago")
	now = now.Add(5 * time.Minute)
	d.send(clockMsg{gen: d.m.clockGen})
	d.wantScreen("6 min ago")
	// "7 min ago" comes at 00:06:30, 25 s from now: a minute, then.
	if !slices.Equal(asked, []time.Duration{time.Minute}) {
		t.Fatalf("after redrawing, the clock set %v, want one timer of a minute", asked)
	}
}

// A clock timer replaced by an earlier one redraws nothing when it rings.
func TestReplacedClockTimerIsIgnored(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 1)
	now := fixedNow
	d := newDriver(t, 80, 20, Options{Source: f, Now: func() time.Time { return now }})
	now = now.Add(5 * time.Minute)
	d.send(clockMsg{gen: d.m.clockGen - 1})
	d.wantScreen("1 min ago")
}
