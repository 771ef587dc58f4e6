package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/sync"
)

// spinFrames are the spinner's frames, one per animation tick.
var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// online reports whether the picture is current (live, or catching up on
// a working connection). Offline, nothing on screen pretends a turn is
// progressing: no spinner, no elapsed time.
func (m *Model) online() bool {
	switch m.snap.Freshness.State {
	case sync.Live, sync.Updating, "":
		return true
	}
	return false
}

// spinnerStep is the spinner's frame time while a turn runs.
const spinnerStep = 120 * time.Millisecond

// animating reports whether something on screen moves with time: a
// running turn (spinner, elapsed time) while online, or a reconnect
// countdown.
func (m *Model) animating() bool {
	if m.opts.Still {
		return false
	}
	if m.turnRunning() && m.online() {
		return true
	}
	return m.countdown() > 0
}

// countdown is the time left to the next reconnect attempt that the
// banner counts down; 0 when it counts none ("trying now", or not
// reconnecting: the attempt itself changes the picture).
func (m *Model) countdown() time.Duration {
	f := m.snap.Freshness
	if f.State != sync.Reconnecting || f.NextAttempt.IsZero() {
		return 0
	}
	return max(f.NextAttempt.Sub(m.now()), 0)
}

// countdownStep is how long until a countdown with remaining left, shown
// in whole seconds rounded up, shows another number.
func countdownStep(remaining time.Duration) time.Duration {
	if r := remaining % time.Second; r > 0 {
		return r
	}
	return time.Second
}

// startTicking schedules the next animation tick when one is needed and
// none is scheduled: the spinner's next frame, or the countdown's next
// number.
func (m *Model) startTicking() tea.Cmd {
	if m.ticking || !m.animating() {
		return nil
	}
	m.ticking = true
	d := spinnerStep
	if !m.turnRunning() || !m.online() {
		d = countdownStep(m.countdown())
	}
	return m.after(d, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) spinner() string {
	if m.opts.Still {
		return spinFrames[0]
	}
	return spinFrames[m.spinIdx%len(spinFrames)]
}

func (m *Model) spinnerIfActive() string {
	if m.turnRunning() && m.online() {
		return m.spinner()
	}
	return ""
}
