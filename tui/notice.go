package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

func (m *Model) setNotice(s string, bad bool) {
	m.notice, m.noticeBad, m.noticeTurn = s, bad, ""
	m.noticeGen++
	m.dirty = true
}

// setTurnNotice sets a notice about turnID (approved, interrupting): it
// is cleared when that turn is no longer the active one (noticeOutlived).
func (m *Model) setTurnNotice(s, turnID string) {
	m.setNotice(s, false)
	m.noticeTurn = turnID
}

func (m *Model) clearNotice() {
	m.notice, m.noticeTurn = "", ""
	m.dirty = true
}

// endTurnNotice clears a notice whose turn has ended; an armed ctrl+c
// keeps saying what is still true.
func (m *Model) endTurnNotice() {
	if !noticeOutlived(m.noticeTurn, m.view) {
		return
	}
	m.clearNotice()
	if m.quitArmed {
		m.setNotice(ctrlCNotice(ctrlCArm, m.nextCtrlC(), m.unsentPrompts()), m.unsentPrompts() > 0)
	}
}

// noticeOutlived reports whether a notice about turnID outlived its turn:
// the view's active turn is another one, or none.
func noticeOutlived(turnID string, v *model.View) bool {
	if turnID == "" || v == nil {
		return false
	}
	return v.ActiveTurn == nil || v.ActiveTurn.TurnID != turnID
}

func (m *Model) expireNotice() tea.Cmd {
	gen := m.noticeGen
	return m.after(4*time.Second, func(time.Time) tea.Msg { return noticeExpired{gen} })
}

// statusRoomForNotice is what the status line keeps beside a notice: the
// shortened title and "? keys" (what else is there may be cut).
const statusRoomForNotice = 24

// statusNotice places the notice: on the status line when it fits there
// whole, else on lines of its own above it, wrapped, and the status line
// goes without it. What a key did (an export's path, why it failed) is
// never cut.
func (m *Model) statusNotice(width int) (inline string, lines []string) {
	if m.notice == "" {
		return "", nil
	}
	text := termtext.Line(m.notice)
	if ansi.StringWidth(text)+statusRoomForNotice <= width {
		return m.notice, nil
	}
	st := m.theme.Accent
	if m.noticeBad {
		st = m.theme.Warning
	}
	wrapped := strings.Split(ansi.Wrap(text, max(width-1, 8), " /-"), "\n")
	if len(wrapped) > maxNoticeLines {
		wrapped = wrapped[:maxNoticeLines]
		wrapped[maxNoticeLines-1] = ansi.Truncate(wrapped[maxNoticeLines-1], max(width-2, 4), "…")
	}
	for i, l := range wrapped {
		wrapped[i] = fit(st.Render(l), width)
	}
	return "", wrapped
}

// maxNoticeLines bounds the lines a notice may take above the status bar.
const maxNoticeLines = 3
