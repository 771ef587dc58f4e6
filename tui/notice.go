package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
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
