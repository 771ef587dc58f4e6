package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// isPrompt reports whether a row is one of the user's prompts: a
// userMessage item or a pending entry.
func isPrompt(r model.Row) bool {
	return r.Pending != nil || r.Item != nil && r.Item.Kind == model.KindUserMessage
}

// nextPrompt returns the index of the first prompt row strictly before
// (dir < 0) or after (dir > 0) from; from may be -1 or len(rows) to search
// from an end. ok is false when there is none that way.
func nextPrompt(rows []model.Row, from, dir int) (int, bool) {
	for i := from + dir; i >= 0 && i < len(rows); i += dir {
		if isPrompt(rows[i]) {
			return i, true
		}
	}
	return 0, false
}

// jumpPrompt selects the previous (dir < 0) or next prompt, counting from
// the selection or, without one on screen, from the rows on screen, and
// puts it at the top of the window. It reports whether there was one.
func (t *transcript) jumpPrompt(dir int) bool {
	rows := t.set.rows
	from := len(rows)
	if dir > 0 {
		from = -1
	}
	first, last, vis := t.visibleRows()
	if i, ok := t.selectedIndex(); ok {
		from = i
	} else if vis && dir < 0 {
		from = last + 1
	} else if vis {
		from = first - 1
	}
	i, ok := nextPrompt(rows, from, dir)
	if !ok {
		return false
	}
	t.selectRow(i)
	t.unfollow()
	t.setAnchor(i+1, 0)
	return true
}

// setAllExpanded expands every item row, or collapses them all.
func (t *transcript) setAllExpanded(on bool) {
	if !on {
		clear(t.expanded)
		return
	}
	for _, r := range t.set.rows {
		if r.Item != nil {
			t.expanded[r.Item.ID] = true
		}
	}
}

// jumpPrompt moves to the previous or next prompt; past the oldest one
// loaded it goes to the top, which loads older history when there is
// some, and otherwise it says there is none.
func (m *Model) jumpPrompt(dir int) tea.Cmd {
	if m.tr.jumpPrompt(dir) {
		return nil
	}
	switch {
	case dir < 0 && m.tr.olderAvailable():
		m.tr.toTop()
		m.setNotice("no earlier prompt loaded · loading older messages…", false)
	case dir < 0:
		m.setNotice("no earlier prompt", false)
	default:
		m.setNotice("no later prompt", false)
	}
	return m.expireNotice()
}

// sessionPrompts hands the composer the session's prompts loaded (its
// userMessage items, sanitised) before a history walk starts. It always
// reports true, to sit in a key's condition.
func (m *Model) sessionPrompts() bool {
	if m.comp.browsing() {
		return true
	}
	var prompts []string
	for _, r := range m.tr.rows() {
		if r.Item != nil && r.Item.Kind == model.KindUserMessage {
			prompts = append(prompts, termtext.Text(r.Item.Text()))
		}
	}
	m.comp.setSessionPrompts(prompts)
	return true
}
