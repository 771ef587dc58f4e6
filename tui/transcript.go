package tui

import (
	"time"

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

	hasOlder bool // view.HasOlder, and no start window above it
	loading  bool // a page of older history is in flight
	holeLoad bool // a page of the start window is in flight (hole.go)

	width, height int // the whole area, including gutter and scrollbar

	follow    bool
	anchor    rowRef
	anchorOff int

	sel      rowRef
	hasSel   bool
	expanded map[string]bool
	mustShow string // an item shown expanded whatever the user chose: the one waiting for approval
	spinner  string
	now      time.Time // the frame's clock, for message time stamps (stamps.go)
	// stampsChange is when a stamp in the window next reads differently
	// (zero: none will); the clock waits for it (clock.go).
	stampsChange time.Time

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

// setView rebuilds the rows from a new View, and the start window above
// it (nil: none), and finds the selection again (reselect).
func (t *transcript) setView(v, start *model.View, loading bool) {
	t.set.build(v, start, t.failed)
	// A start window begins at the session's start: nothing is older.
	t.hasOlder, t.loading = v.HasOlder && start == nil, loading
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
		switch last := t.set.rows[n-1]; {
		case last.Item != nil:
			sig.id, sig.ver = last.Item.ID, last.Item.Version
		case last.Pending != nil:
			sig.id, sig.st = "pending:"+last.Pending.CommandID, last.Pending.Status
		default:
			sig.id = holeKey
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

// rowLines returns row i's rendered lines (cached by the renderer).
func (t *transcript) rowLines(i int) []string {
	if t.partial.use && t.partial.v == i+1 {
		return t.partial.lines
	}
	row := t.set.rows[i]
	w := t.contentWidth()
	if t.set.isHole(i) {
		return t.holeLines(w)
	}
	if row.Pending != nil {
		return t.pendingLines(*row.Pending, w)
	}
	return t.r.Item(row.Item, w, t.rowOpts(i))
}

func (t *transcript) rowOpts(i int) render.ItemOptions {
	it := t.set.rows[i].Item
	opts := render.ItemOptions{Expanded: t.expanded[it.ID] || it.ID == t.mustShow, Selected: t.isSelected(i)}
	if it.IsOpen() && !it.TerminalUnknown {
		opts.Spinner = t.spinner
	}
	return opts
}

// height of virtual row v: the header is one line; a row is a blank
// separator line plus its rendered lines.
func (t *transcript) heightOf(v int) int {
	if v == 0 {
		return 1
	}
	return 1 + len(t.rowLines(v-1))
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

// showsWhole reports whether the last layout had every line of item id's
// row on screen.
func (t *transcript) showsWhole(id string) bool {
	v, n := -1, 0
	for k, rv := range t.lineRow {
		if rv <= 0 || rv > len(t.set.rows) || !t.lineBody[k] {
			continue
		}
		if it := t.set.rows[rv-1].Item; it != nil && it.ID == id {
			v, n = rv, n+1
		}
	}
	return v > 0 && n == len(t.rowLines(v-1))
}

// rows are the transcript's rows, oldest first (shared: read only).
func (t *transcript) rows() []model.Row { return t.set.rows }

// olderAvailable reports whether the host holds older history than the
// rows.
func (t *transcript) olderAvailable() bool { return t.hasOlder }

// oldestKey identifies the oldest row held ("" when empty).
func (t *transcript) oldestKey() string {
	if len(t.set.rows) == 0 {
		return ""
	}
	return t.set.key(0)
}
