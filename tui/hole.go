package tui

import (
	tea "charm.land/bubbletea/v2"
)

// The start of a long session (docs/tui.md, "Reaching the start"): Home
// asks the source for the session's first items (LoadStart), which arrive
// apart from the held range as a start window (sync.Picture.Start). The
// transcript shows the window's rows, then the hole (one line standing for
// the items not loaded between them), then the View's rows. While the hole
// is on screen the UI asks for the next page below the window
// (LoadForward); the window grows into the hole until it joins the View,
// and the row anchor keeps what the user looks at in place throughout.

// setHoleLoading says whether a page of the start window is in flight.
func (t *transcript) setHoleLoading(loading bool) { t.holeLoad = loading }

// holeLines renders the hole's one line (the renderer's rows have a
// two-cell gutter; the hole lines up with the header line).
func (t *transcript) holeLines(w int) []string {
	label := "⋯ more messages here · scroll down to load"
	if t.holeLoad {
		label = "⋯ more messages here · loading…"
	}
	return []string{fit("  "+t.theme.Muted.Render(label), w)}
}

// showsHole reports whether the last layout had the hole's line on screen.
func (t *transcript) showsHole() bool {
	if t.set.hole < 0 {
		return false
	}
	v := t.set.hole + 1
	for _, r := range t.lineRow {
		if r == v {
			return true
		}
	}
	return false
}

// isHole reports whether row i is the hole (not a row to select or search).
func (t *transcript) isHole(i int) bool { return t.set.isHole(i) }

// rowKey is row i's key, stable across Views (the hole has one too).
func (t *transcript) rowKey(i int) string { return t.set.key(i) }

// toStart shows the session's first item. When the held range starts
// there (or the source cannot be asked now) it is the top of the
// transcript; otherwise it asks for the start window and goes to its top
// as soon as the window's first items arrive (startArrived).
func (m *Model) toStart() tea.Cmd {
	start := m.snap.Start
	if m.view == nil || !m.view.HasOlder || start != nil && len(start.Items) > 0 || !m.online() {
		m.goStart = false
		m.tr.toTop()
		return nil
	}
	m.goStart = true
	m.setNotice("loading the start of the session…", false)
	return tea.Batch(call(m.src.LoadStart), m.expireNotice())
}

// startArrived goes to the top once the start window asked for by Home
// has its first items (or the held range itself reached the start).
func (m *Model) startArrived() {
	if !m.goStart || m.view == nil {
		return
	}
	start := m.snap.Start
	if start != nil && len(start.Items) > 0 || start == nil && !m.view.HasOlder {
		m.goStart = false
		m.tr.toTop()
		m.clearNotice()
		m.dirty = true
	}
}

// maybeLoadForward asks for the next page below the start window while
// the hole is on screen and no page of it is in flight. After a page went
// wrong (the client recorded an error since the ask) it waits for the user
// to scroll or press a key before asking again, so that a failing host is
// not asked in a loop.
func (m *Model) maybeLoadForward() tea.Cmd {
	if m.snap.Start == nil || m.snap.StartLoading || !m.tr.showsHole() {
		return nil
	}
	if m.forwardAsked && m.snap.ErrorCount != m.forwardErrs {
		return nil
	}
	m.forwardAsked, m.forwardErrs = true, m.snap.ErrorCount
	return call(m.src.LoadForward)
}
