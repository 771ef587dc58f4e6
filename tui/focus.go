package tui

import tea "charm.land/bubbletea/v2"

// focusArea is where the keys go: the composer (at start) or the
// transcript.
type focusArea int

const (
	focusComposer focusArea = iota
	focusTranscript
)

// focusComposer gives the composer the keys. The transcript's selection
// goes: the selection marker shows only while the transcript has focus
// (tab selects the bottom visible row again).
func (m *Model) focusComposer() tea.Cmd {
	m.focus = focusComposer
	m.tr.clearSelection()
	m.dirty = true
	return m.comp.focus()
}

// focusTranscript gives the transcript the keys; the draft stays.
func (m *Model) focusTranscript() {
	m.focus = focusTranscript
	m.comp.blur()
	m.dirty = true
}
