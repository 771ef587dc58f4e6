package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// The clock redraws the frame when a message time on screen ("5 min
// ago", "yesterday 09:12") would read differently, and at no other time:
// a screen showing no relative time sets no timer at all. Any other
// redraw moves the stamps on too.

// clockMsg is the clock's timer; gen tells a timer that was replaced by
// an earlier one, which is ignored.
type clockMsg struct{ gen int }

// clockSpacing is the least time between two redraws of the clock's own:
// stamps of different messages move on at different instants, and each
// waits for the next redraw at most this long.
const clockSpacing = time.Minute

// clockDue is when the clock should next redraw: when the first stamp on
// screen reads differently (change), but no sooner than clockSpacing
// after the clock last redrew (last); the zero time when no stamp on
// screen will change.
func clockDue(change, last time.Time) time.Time {
	if change.IsZero() || last.IsZero() {
		return change
	}
	if spaced := last.Add(clockSpacing); change.Before(spaced) {
		return spaced
	}
	return change
}

// clockArm reports whether a timer must be set for due when one is
// already set for armed (zero: none): only when due is sooner.
func clockArm(due, armed time.Time) bool {
	return !due.IsZero() && (armed.IsZero() || due.Before(armed))
}

// scheduleClock sets the clock's timer when the frame's stamps need one
// sooner than the one set.
func (m *Model) scheduleClock() tea.Cmd {
	due := clockDue(m.stampsChange, m.clockLast)
	if !clockArm(due, m.clockAt) {
		return nil
	}
	m.clockAt = due
	m.clockGen++
	gen := m.clockGen
	return m.after(max(due.Sub(m.now()), 0), func(time.Time) tea.Msg { return clockMsg{gen} })
}

// clockRang handles the clock's timer: the frame is redrawn when a stamp
// has moved on by now.
func (m *Model) clockRang(msg clockMsg) {
	if msg.gen != m.clockGen {
		return
	}
	m.clockAt = time.Time{}
	due := clockDue(m.stampsChange, m.clockLast)
	if now := m.now(); !due.IsZero() && !now.Before(due) {
		m.clockLast = now
		m.dirty = true
	}
}
