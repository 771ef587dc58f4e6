package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// selectionVisible fails t unless a row is selected, has a line on screen
// and shows the selection marker.
func selectionVisible(t *testing.T, d *driver, what string) int {
	t.Helper()
	i, ok := d.m.tr.selectedIndex()
	if !ok {
		t.Fatalf("%s: nothing selected", what)
	}
	first, last, vis := d.m.tr.visibleRows()
	if !vis || i < first || i > last {
		t.Fatalf("%s: row %d is selected, rows %d..%d are on screen:\n%s", what, i, first, last, d.screen())
	}
	if !strings.Contains(d.screen(), "▌") {
		t.Fatalf("%s: no selection marker on screen:\n%s", what, d.screen())
	}
	return i
}

// The selection is always on screen: tab selects the bottom visible row
// (also after scrolling from the composer), scrolling in the transcript
// carries the selection along, y copies a row the user can see, and the
// first k moves one row up from where the marker is.
func TestSelectionIsAlwaysVisible(t *testing.T) {
	f := newFake(t)
	longSession(f, 1, 30)
	d := newDriver(t, 60, 20, Options{Source: f})
	d.keys("tab")
	i := selectionVisible(t, d, "tab")
	if _, last, _ := d.m.tr.visibleRows(); i != last {
		t.Fatalf("tab selected row %d, the bottom visible row is %d", i, last)
	}
	// Back to the composer, scroll up there, tab again: the selection is
	// the bottom row of what is on screen now, not the old one below.
	d.keys("i", "pgup", "pgup", "pgup")
	d.keys("tab")
	i = selectionVisible(t, d, "tab after scrolling")
	if _, last, _ := d.m.tr.visibleRows(); i != last {
		t.Fatalf("tab selected row %d, the bottom visible row is %d", i, last)
	}
	d.keys("k")
	if j := selectionVisible(t, d, "k"); j != i-1 {
		t.Fatalf("k moved the selection from %d to %d", i, j)
	}
	// Scrolling in the transcript keeps a selection on screen.
	for _, k := range []string{"pgup", "pgup", "ctrl+u", "shift+up", "pgdown", "ctrl+d", "home", "end"} {
		d.keys(k)
		selectionVisible(t, d, k)
	}
	d.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	d.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	selectionVisible(t, d, "wheel")
	// y copies what is selected, which is on screen.
	row, _ := d.m.tr.selectedRow()
	if !strings.Contains(d.screen(), d.m.r.Plain(row.Item)) {
		t.Fatalf("the selected row %q is not on screen:\n%s", d.m.r.Plain(row.Item), d.screen())
	}
	// In the composer no row is selected: the marker shows transcript focus.
	d.keys("i")
	if _, ok := d.m.tr.selectedIndex(); ok || strings.Contains(d.screen(), "▌") {
		t.Fatalf("a selection shows while the composer has focus:\n%s", d.screen())
	}
}
