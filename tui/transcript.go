package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/themes"
)

// transcript is the scrolling list of rows. It lays out only the visible
// window: rows are addressed by a virtual index v (0 is the header line
// above the first row, v >= 1 is rows[v-1]) and each row's lines come from
// the renderer's cache, so a frame costs O(visible lines) whatever the
// transcript's length.
//
// Scroll state is either follow (pinned to the bottom) or an anchor: a row
// reference and a line offset into that row's block (its blank separator
// line, then its rendered lines). The anchor names a row, not a line
// number, so rows prepended above (older history) never move what is on
// screen.
type transcript struct {
	r     *render.Renderer
	theme themes.Theme
	set   rowSet

	hasOlder bool // view.HasOlder
	loading  bool // a page of older history is in flight

	width, height int // the whole area, including gutter and scrollbar

	follow    bool
	anchor    rowRef
	anchorOff int

	sel      rowRef
	hasSel   bool
	expanded map[string]bool
	spinner  string
	now      time.Time // the frame's clock, for message time stamps (stamps.go)

	// failed are the UI's failed prompts (failed.go), placed like pending
	// entries; failHint says how to take one back.
	failed   []model.PendingEntry
	failNote map[string]render.FailedNote
	failHint string

	// newBelow is set when rows changed at the bottom while not following.
	newBelow bool
	tailSig  tailSig

	// partial is set while a follow layout shows only the bottom of a row
	// (render.ItemTail): the layout's top position is then relative to
	// those lines, and exactTop turns it into the row's real offset.
	partial partialRow

	// Results of the last layout.
	lines    []string
	lineRow  []int  // virtual row index of each screen line
	lineBody []bool // the line is a row's content (not its blank separator)
	topV     int    // virtual index of the first visible line's row
	topOff   int    // its offset inside that row's block
	botV     int    // virtual index of the last visible row
	atTop    bool   // the header line is on screen
}

type tailSig struct {
	n   int
	id  string
	ver uint64
	st  model.PendingStatus
}

// newTranscript makes an empty transcript that follows the bottom.
// failHint says how to take a failed prompt back (shown on its row).
func newTranscript(r *render.Renderer, t themes.Theme, failHint string) *transcript {
	return &transcript{r: r, theme: t, failHint: failHint, follow: true, expanded: map[string]bool{}}
}

// setTheme switches the transcript's own styles (the renderer has its own).
func (t *transcript) setTheme(th themes.Theme) { t.theme = th }

// setLoading says whether a page of older history is in flight.
func (t *transcript) setLoading(loading bool) { t.loading = loading }

// contentWidth is the width handed to the renderer (which draws its own
// selection gutter): the area minus a one-column scrollbar.
func (t *transcript) contentWidth() int { return max(1, t.width-1) }

// vcount is the number of virtual rows (header + rows).
func (t *transcript) vcount() int { return len(t.set.rows) + 1 }

// setView rebuilds the rows from a new View and finds the selection
// again (reselect).
func (t *transcript) setView(v *model.View, loading bool) {
	t.set.build(v, t.failed)
	t.hasOlder, t.loading = v.HasOlder, loading
	sig := t.tail()
	// Rows prepended above (older history) change only n: not new below.
	if !t.follow && (sig.id != t.tailSig.id || sig.ver != t.tailSig.ver || sig.st != t.tailSig.st) {
		t.newBelow = true
	}
	t.tailSig = sig
	t.reselect()
}

// tail is the signature of the bottom row: what changes when something
// happens below.
func (t *transcript) tail() tailSig {
	n := len(t.set.rows)
	sig := tailSig{n: n}
	if n > 0 {
		last := t.set.rows[n-1]
		if last.Item != nil {
			sig.id, sig.ver = last.Item.ID, last.Item.Version
		} else {
			sig.id, sig.st = "pending:"+last.Pending.CommandID, last.Pending.Status
		}
	}
	return sig
}

// setFailed replaces the failed prompts shown (rows are rebuilt by the
// next setView).
func (t *transcript) setFailed(fs []failedPrompt) {
	t.failed = t.failed[:0]
	t.failNote = make(map[string]render.FailedNote, len(fs))
	for _, f := range fs {
		t.failed = append(t.failed, f.entry)
		t.failNote[f.entry.CommandID] = render.FailedNote{Verdict: f.verdict, Reason: f.reason, Hint: t.failHint}
	}
}

// partialRow is a row of which a follow layout took only the last lines.
type partialRow struct {
	v     int      // its virtual index (0: none)
	lines []string // those lines
	use   bool     // rowLines returns them (during the layout)
}

// rowLines returns row i's rendered lines (cached by the renderer).
func (t *transcript) rowLines(i int) []string {
	if t.partial.use && t.partial.v == i+1 {
		return t.partial.lines
	}
	row := t.set.rows[i]
	w := t.contentWidth()
	if row.Pending != nil {
		return t.pendingLines(*row.Pending, w)
	}
	return t.r.Item(row.Item, w, t.rowOpts(i))
}

func (t *transcript) rowOpts(i int) render.ItemOptions {
	it := t.set.rows[i].Item
	opts := render.ItemOptions{Expanded: t.expanded[it.ID], Selected: t.isSelected(i)}
	if it.IsOpen() && !it.TerminalUnknown {
		opts.Spinner = t.spinner
	}
	return opts
}

// followHeight is the height of virtual row v for a layout walking up
// from the bottom that still needs need lines: the row's whole height, or,
// for a long streamed answer whose top is off the screen anyway, a height
// made of only its last lines (at least need of them, behind a stand-in
// for the separator line), which the layout then shows.
func (t *transcript) followHeight(v, need int) int {
	if v == 0 {
		return 1
	}
	it := t.set.rows[v-1].Item
	if it == nil || it.Kind != model.KindAgentMessage {
		return t.heightOf(v)
	}
	lines, whole := t.r.ItemTail(it, t.contentWidth(), t.rowOpts(v-1), need)
	if whole {
		return 1 + len(lines)
	}
	t.partial = partialRow{v: v, lines: lines, use: true}
	return 1 + len(lines)
}

// exactTop turns the top position of a layout that showed only the bottom
// of a row into the row's real offset (rendering the whole row), before
// anything scrolls from it.
func (t *transcript) exactTop() {
	if t.partial.v == 0 {
		return
	}
	if t.topV == t.partial.v {
		t.topOff += t.heightOf(t.topV) - (1 + len(t.partial.lines))
	}
	t.partial = partialRow{}
}

func (t *transcript) isSelected(i int) bool {
	return t.hasSel && t.sel.idx == i && t.sel.matches(t.set.rows[i])
}

// height of virtual row v: the header is one line; a row is a blank
// separator line plus its rendered lines.
func (t *transcript) heightOf(v int) int {
	if v == 0 {
		return 1
	}
	return 1 + len(t.rowLines(v-1))
}

func (t *transcript) headerLine() string {
	w := t.contentWidth()
	var s string
	switch {
	case t.loading:
		s = t.theme.Muted.Render("⋯ loading older messages…")
	case t.hasOlder:
		s = t.theme.Muted.Render("↑ older messages: scroll up to load")
	default:
		w -= 2
		label := " beginning of session "
		side := max(0, (w-ansi.StringWidth(label))/2)
		s = t.theme.Divider.Render(strings.Repeat("─", side) + label + strings.Repeat("─", max(0, w-side-ansi.StringWidth(label))))
	}
	return s
}

// refAt is the anchor reference of virtual row v.
func (t *transcript) refAt(v int) rowRef {
	if v == 0 || len(t.set.rows) == 0 {
		return rowRef{header: true}
	}
	return t.set.refOf(v - 1)
}

// resolve turns the anchor into a normalised (v, off) position and stores
// it back. A position on the header is stored relative to the first row
// (a negative offset), so older rows prepended later keep that row in
// place.
func (t *transcript) resolve() (int, int) {
	v, off := 0, t.anchorOff
	if !t.anchor.header {
		if i, ok := t.set.find(t.anchor); ok {
			v = i + 1
		} else {
			// The row is gone: stay at its old index.
			v = min(max(t.anchor.idx, 0), len(t.set.rows)-1) + 1
			if len(t.set.rows) == 0 {
				v = 0
			}
		}
	}
	for off < 0 && v > 0 {
		v--
		off += t.heightOf(v)
	}
	if off < 0 {
		off = 0
	}
	n := t.vcount()
	for v < n-1 && off >= t.heightOf(v) {
		off -= t.heightOf(v)
		v++
	}
	if h := t.heightOf(v); off >= h {
		off = h - 1
	}
	t.setAnchor(v, off)
	return v, off
}

// setAnchor stores position (v, off) as the anchor.
func (t *transcript) setAnchor(v, off int) {
	if v == 0 && len(t.set.rows) > 0 {
		t.anchor, t.anchorOff = t.set.refOf(0), off-t.heightOf(0)
		return
	}
	t.anchor, t.anchorOff = t.refAt(v), off
}

// layout lays out a window of width by height cells (scrollbar included)
// and returns its lines, exactly height of them, each exactly width
// columns. spinner is drawn on running items ("" for a static mark); now
// is the frame's clock, for time stamps.
func (t *transcript) layout(width, height int, spinner string, now time.Time) []string {
	t.width, t.height, t.spinner, t.now = width, height, spinner, now
	t.lay()
	return t.lines
}

// lay computes the visible window into t.lines (exactly t.height lines,
// each exactly t.width columns, scrollbar included).
func (t *transcript) lay() {
	h := t.height
	t.lines, t.lineRow, t.lineBody = t.lines[:0], t.lineRow[:0], t.lineBody[:0]
	if h <= 0 || t.width <= 0 {
		return
	}
	if !t.follow {
		t.exactTop()
		v, off := t.resolve()
		if !t.collect(v, off, h) {
			// The content ran out before the window filled: the user reached
			// the bottom, so follow again.
			t.follow = true
		}
	}
	if t.follow {
		t.newBelow = false
		t.partial = partialRow{}
		n := t.vcount()
		total, v := 0, n-1
		for ; v >= 0; v-- {
			total += t.followHeight(v, h-total)
			if total >= h {
				break
			}
		}
		v = max(v, 0)
		t.collect(v, max(0, total-h), h)
		t.partial.use = false
	}
	if t.keepSelectionVisible() {
		// Only the marker moved: the same window, drawn again.
		t.collect(t.topV, t.topOff, h)
	}
	t.decorate()
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

// collect gathers up to h lines downward from (v, off), recording the
// window's bounds. It reports whether the window was filled.
func (t *transcript) collect(v, off, h int) bool {
	t.lines, t.lineRow, t.lineBody = t.lines[:0], t.lineRow[:0], t.lineBody[:0]
	t.topV, t.topOff, t.atTop = v, off, v == 0 && off == 0
	n := t.vcount()
	cw := t.contentWidth()
	for cv, coff := v, off; cv < n && len(t.lines) < h; cv, coff = cv+1, 0 {
		t.botV = cv
		if cv == 0 {
			t.lines = append(t.lines, fit("  "+t.headerLine(), cw))
			t.lineRow = append(t.lineRow, 0)
			t.lineBody = append(t.lineBody, false)
			continue
		}
		i := cv - 1
		ls := t.rowLines(i)
		for k := coff; k <= len(ls) && len(t.lines) < h; k++ {
			if k == 0 {
				t.lines = append(t.lines, blank(cw))
			} else if k == 1 {
				t.lines = append(t.lines, fit(t.headerStamp(i, ls[0], cw), cw))
			} else {
				t.lines = append(t.lines, fit(ls[k-1], cw))
			}
			t.lineRow = append(t.lineRow, cv)
			t.lineBody = append(t.lineBody, k > 0)
		}
	}
	filled := len(t.lines) >= h
	for len(t.lines) < h {
		t.lines = append(t.lines, blank(cw))
		t.lineRow = append(t.lineRow, -1)
		t.lineBody = append(t.lineBody, false)
	}
	return filled
}

// decorate adds the "new messages below" marker and the scrollbar.
func (t *transcript) decorate() {
	h := len(t.lines)
	cw := t.contentWidth()
	if t.newBelow && !t.follow && h > 0 {
		label := t.theme.Accent.Render("↓ new messages below · end to follow")
		pad := max(0, (cw-ansi.StringWidth(label))/2)
		t.lines[h-1] = fit(strings.Repeat(" ", pad)+label, cw)
	}
	n := t.vcount()
	visible := max(1, t.botV-t.topV+1)
	showBar := n > visible || t.topOff > 0 || !t.atTop && !t.follow || t.hasOlder
	if !showBar || h == 0 {
		for i := range t.lines {
			t.lines[i] += " "
		}
		return
	}
	thumb := max(1, h*visible/max(n, 1))
	top := 0
	if t.follow {
		top = h - thumb
	} else if n > visible {
		top = (h - thumb) * t.topV / (n - visible)
	}
	top = min(max(top, 0), h-thumb)
	track, bar := t.theme.Faint.Render("│"), t.theme.Accent.Render("┃")
	for i := range t.lines {
		if i >= top && i < top+thumb {
			t.lines[i] += bar
		} else {
			t.lines[i] += track
		}
	}
}

// pendingLines renders a pending row: an in-flight prompt, or a failed
// one with its note (the renderer caches both).
func (t *transcript) pendingLines(p model.PendingEntry, w int) []string {
	var note *render.FailedNote
	if n, ok := t.failNote[p.CommandID]; ok && p.Status == pendingFailed {
		note = &n
	}
	sel := t.hasSel && t.sel.pending && t.sel.id == p.CommandID
	return t.r.PendingRow(p, note, w, render.ItemOptions{Selected: sel})
}

// blanks holds runs of spaces by width, so blank lines cost nothing.
var blanks = strings.Repeat(" ", 512)

func blank(w int) string {
	if w <= len(blanks) {
		return blanks[:w]
	}
	return strings.Repeat(" ", w)
}

// fit pads or truncates a styled line to exactly w columns.
func fit(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "")
	}
	if sw < w {
		return s + blank(w-sw)
	}
	return s
}

// scroll moves the window by delta lines (negative: up).
func (t *transcript) scroll(delta int) {
	if delta == 0 {
		return
	}
	t.exactTop()
	if t.follow {
		if delta > 0 {
			return
		}
		t.unfollow()
		t.setAnchor(t.topV, t.topOff)
	}
	t.anchorOff += delta
}

// unfollow stops following the bottom. Only what changes at the bottom
// from now on counts as "new below"; the caller sets the anchor.
func (t *transcript) unfollow() {
	if !t.follow {
		return
	}
	t.follow = false
	t.newBelow = false
	t.tailSig = t.tail()
}

// toTop jumps to the header line (the very top).
func (t *transcript) toTop() {
	t.unfollow()
	t.anchor, t.anchorOff = rowRef{header: true}, 0
}

// toBottom follows again.
func (t *transcript) toBottom() {
	t.follow = true
	t.newBelow = false
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
	t.sel = t.set.refOf(min(max(t.sel.idx, 0), len(t.set.rows)-1))
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

// reveal scrolls so that row i is on screen (its top when it is taller
// than the window).
func (t *transcript) reveal(i int) {
	t.exactTop()
	v := i + 1
	h := t.height
	if h <= 0 {
		return
	}
	if v < t.topV || (v == t.topV && t.topOff > 0) {
		t.unfollow()
		t.setAnchor(v, 0)
		return
	}
	// Lines from the window's top to the end of row v.
	d := t.heightOf(t.topV) - t.topOff
	for w := t.topV + 1; w <= v; w++ {
		if d > 4*h+t.heightOf(v) {
			break
		}
		d += t.heightOf(w)
	}
	if d <= h {
		return
	}
	if v == t.vcount()-1 {
		t.toBottom()
		return
	}
	t.unfollow()
	if t.heightOf(v) > h || d > 4*h {
		t.setAnchor(v, 0)
		return
	}
	t.setAnchor(t.topV, t.topOff)
	t.anchorOff += d - h
}

// selectAtLine selects the row on screen line y of the transcript area.
func (t *transcript) selectAtLine(y int) bool {
	if y < 0 || y >= len(t.lineRow) || t.lineRow[y] < 1 {
		return false
	}
	t.selectRow(t.lineRow[y] - 1)
	return true
}

// selectRow selects row i.
func (t *transcript) selectRow(i int) { t.sel, t.hasSel = t.set.refOf(i), true }

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

// rows are the transcript's rows, oldest first (shared: read only).
func (t *transcript) rows() []model.Row { return t.set.rows }

// page is how far a page scroll moves: the window less two lines of
// context.
func (t *transcript) page() int { return max(1, t.height-2) }

// halfPage is half the window.
func (t *transcript) halfPage() int { return max(1, t.height/2) }

// showsTop reports whether the last layout had the header line on screen.
func (t *transcript) showsTop() bool { return t.atTop }

// olderAvailable reports whether the host holds older history than the
// rows.
func (t *transcript) olderAvailable() bool { return t.hasOlder }

// selectedRow returns the selected row.
func (t *transcript) selectedRow() (model.Row, bool) {
	i, ok := t.selectedIndex()
	if !ok {
		return model.Row{}, false
	}
	return t.set.rows[i], true
}

// oldestKey identifies the oldest row held ("" when empty).
func (t *transcript) oldestKey() string {
	if len(t.set.rows) == 0 {
		return ""
	}
	return t.set.rows[0].Key()
}

// position describes where the window is, for the status bar.
func (t *transcript) position() string {
	if t.follow {
		return ""
	}
	n := len(t.set.rows)
	if n == 0 {
		return ""
	}
	at := max(t.topV, 1)
	return "↑ " + itoa(at) + "/" + itoa(n)
}

// isSelectedID reports whether the item with id is selected.
func (t *transcript) isSelectedID(id string) bool {
	return t.hasSel && !t.sel.pending && t.sel.id == id
}
