package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// pickerDelete is the picker's delete state: how to delete (nil: the
// picker offers no delete), the session it asks about, and what the last
// delete came to.
type pickerDelete struct {
	do      func(sessionID string) error
	asking  *sync.SessionInfo // awaiting y/n
	pending string            // the session being deleted now
	said    string            // the outcome of the last delete, one line
	failed  bool              // said is an error
}

// pickerDeletedMsg is the end of a delete the picker ran.
type pickerDeletedMsg struct {
	id  string
	err error
}

// OfferDelete lets the user delete the highlighted session (keymap
// Picker.Delete, then y or enter to confirm). del runs in a tea.Cmd, never
// in Update; it deletes the session on the host (sync.DeleteSession).
func (p *Picker) OfferDelete(del func(sessionID string) error) { p.del.do = del }

// askDelete asks about the highlighted session.
func (p *Picker) askDelete() {
	if len(p.sessions) == 0 || p.del.pending != "" {
		return
	}
	s := p.sessions[p.cur]
	p.del.asking, p.del.said = &s, ""
}

// answerDelete takes the answer to the question: y or enter deletes, n or
// esc keeps the session; ctrl+c still quits, other keys do nothing.
func (p *Picker) answerDelete(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case msg.String() == "y" || msg.String() == "Y" || key.Matches(msg, p.km.Picker.Select):
		id, del := p.del.asking.SessionID, p.del.do
		p.del.asking, p.del.pending = nil, id
		return func() tea.Msg { return pickerDeletedMsg{id: id, err: del(id)} }
	case msg.String() == "n" || msg.String() == "N" || key.Matches(msg, p.km.Transcript.ClearSelect):
		p.del.asking = nil
	case key.Matches(msg, p.km.Global.Quit) && msg.String() == "ctrl+c":
		return tea.Quit
	}
	return nil
}

// deleted takes a delete's outcome: the session leaves the list, or the
// error is shown.
func (p *Picker) deleted(msg pickerDeletedMsg) {
	p.del.pending = ""
	if msg.err != nil {
		p.del.said, p.del.failed = "could not delete "+msg.id+": "+msg.err.Error(), true
		return
	}
	p.del.said, p.del.failed = "deleted session "+msg.id, false
	p.all = slices.DeleteFunc(p.all, func(s sync.SessionInfo) bool { return s.SessionID == msg.id })
	p.sessions = filterSessions(p.all, p.filter)
	p.cur = min(p.cur, max(len(p.sessions)-1, 0))
}

// deleteLine is the line that stands in for the hint while the picker
// asks, deletes or has just deleted; ok is false when there is none.
func (p *Picker) deleteLine(w int) (string, bool) {
	t := p.theme
	switch {
	case p.del.asking != nil:
		s := p.del.asking
		title := termtext.Line(s.Title)
		if title == "" {
			title = "(untitled)"
		}
		q := "Delete \u201c" + title + "\u201d (" + termtext.Line(s.SessionID) + ") and its history? y/enter deletes · n/esc keeps it"
		return fit(" "+t.Error.Render(q), w), true
	case p.del.pending != "":
		return fit(" "+t.Muted.Render("deleting "+termtext.Line(p.del.pending)+"…"), w), true
	case p.del.said != "":
		st := t.Muted
		if p.del.failed {
			st = t.Error
		}
		return fit(" "+st.Render(termtext.Line(p.del.said)), w), true
	}
	return "", false
}
