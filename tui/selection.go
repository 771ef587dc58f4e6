package tui

import "github.com/lookout-sh/lookout/model"

// isSelected reports whether row i is the selected row.
func (t *transcript) isSelected(i int) bool {
	return t.hasSel && t.sel.idx == i && t.sel.matches(t.set.rows[i])
}

// keepSelectionVisible moves a selection that the window left behind to
// the nearest row on screen (the first when it was above, the last when
// below), so that what y copies and where k starts is always in view. It
// reports whether the selection moved.
func (t *transcript) keepSelectionVisible() bool {
	i, ok := t.selectedIndex()
	if !ok {
		return false
	}
	first, last, vis := t.visibleRows()
	if !vis || (i >= first && i <= last) {
		return false
	}
	if i < first {
		i = first
	} else {
		i = last
	}
	t.sel = t.set.refOf(i)
	return true
}

// selectBottom selects the bottom row with content on screen.
func (t *transcript) selectBottom() {
	if _, last, ok := t.visibleRows(); ok {
		t.selectRow(last)
		return
	}
	if n := len(t.set.rows); n > 0 {
		t.selectRow(n - 1)
	}
}

// selectedIndex returns the selected row's current index.
func (t *transcript) selectedIndex() (int, bool) {
	if !t.hasSel {
		return 0, false
	}
	i, ok := t.set.find(t.sel)
	if !ok {
		return 0, false
	}
	t.sel = t.set.refOf(i)
	return i, true
}

// reselect re-finds the selection after a rebuild; a vanished row passes
// the selection to the row now at its index.
func (t *transcript) reselect() {
	if !t.hasSel {
		return
	}
	if _, ok := t.selectedIndex(); ok {
		return
	}
	if len(t.set.rows) == 0 {
		t.hasSel = false
		return
	}
	t.selectRow(min(max(t.sel.idx, 0), len(t.set.rows)-1))
}

// visibleRows returns the first and last row indexes (not virtual) with a
// line of content on screen (a row whose only visible line is its blank
// separator does not count), from the last layout.
func (t *transcript) visibleRows() (first, last int, ok bool) {
	first, last = -1, -1
	for k, v := range t.lineRow {
		if v >= 1 && t.lineBody[k] {
			if first < 0 {
				first = v - 1
			}
			last = v - 1
		}
	}
	return first, last, first >= 0
}

// move moves the selection by dir (-1 up, +1 down) and scrolls it into
// view. With no visible selection it selects the bottom (up) or top (down)
// visible row.
func (t *transcript) move(dir int) {
	if len(t.set.rows) == 0 {
		return
	}
	first, last, vis := t.visibleRows()
	i, ok := t.selectedIndex()
	switch {
	case ok && vis && i >= first && i <= last:
		i = min(max(i+dir, 0), len(t.set.rows)-1)
		if t.set.isHole(i) && i+dir >= 0 && i+dir < len(t.set.rows) {
			i += dir // over the hole, to the row beyond it
		}
	case vis && dir < 0:
		i = last
	case vis:
		i = first
	default:
		i = len(t.set.rows) - 1
	}
	t.selectRow(i)
	t.reveal(i)
}

// selectAtLine selects the row on screen line y of the transcript area.
func (t *transcript) selectAtLine(y int) bool {
	if y < 0 || y >= len(t.lineRow) || t.lineRow[y] < 1 || t.set.isHole(t.lineRow[y]-1) {
		return false
	}
	t.selectRow(t.lineRow[y] - 1)
	return true
}

// selectRow selects row i; the hole passes the selection to the row below
// it (above it when it is the last).
func (t *transcript) selectRow(i int) {
	if t.set.isHole(i) {
		switch {
		case i+1 < len(t.set.rows):
			i++
		case i > 0:
			i--
		default:
			return
		}
	}
	t.sel, t.hasSel = t.set.refOf(i), true
}

// clearSelection drops the selection (the marker goes).
func (t *transcript) clearSelection() { t.hasSel = false }

// toggleSelected expands the selected item, or collapses it.
func (t *transcript) toggleSelected() {
	row, ok := t.selectedRow()
	if !ok || row.Item == nil {
		return
	}
	if id := row.Item.ID; t.expanded[id] {
		delete(t.expanded, id)
	} else {
		t.expanded[id] = true
	}
}

// selectedRow returns the selected row.
func (t *transcript) selectedRow() (model.Row, bool) {
	i, ok := t.selectedIndex()
	if !ok {
		return model.Row{}, false
	}
	return t.set.rows[i], true
}

// isSelectedID reports whether the item with id is selected.
func (t *transcript) isSelectedID(id string) bool {
	return t.hasSel && !t.sel.pending && t.sel.id == id
}
