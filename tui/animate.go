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
	return m.snap.Freshness.State == sync.Reconnecting
}

// startTicking schedules the next animation tick when one is needed and
// none is scheduled.
func (m *Model) startTicking() tea.Cmd {
	if m.ticking || !m.animating() {
		return nil
	}
	m.ticking = true
	d := 120 * time.Millisecond
	if !m.turnRunning() || !m.online() {
		d = 500 * time.Millisecond
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
