package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
)

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

// partialRow is a row of which a follow layout took only the last lines.
type partialRow struct {
	v     int      // its virtual index (0: none)
	lines []string // those lines
	use   bool     // rowLines returns them (during the layout)
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

// collect gathers up to h lines downward from (v, off), recording the
// window's bounds. It reports whether the window was filled.
func (t *transcript) collect(v, off, h int) bool {
	t.lines, t.lineRow, t.lineBody = t.lines[:0], t.lineRow[:0], t.lineBody[:0]
	t.topV, t.topOff, t.atTop = v, off, v == 0 && off == 0
	t.stampsChange = time.Time{}
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
		hole := t.set.isHole(i)
		for k := coff; k <= len(ls) && len(t.lines) < h; k++ {
			switch {
			case k == 0:
				t.lines = append(t.lines, blank(cw))
			case k == 1 && !hole:
				t.lines = append(t.lines, fit(t.headerStamp(i, ls[0], cw), cw))
			default:
				t.lines = append(t.lines, fit(ls[k-1], cw))
			}
			t.lineRow = append(t.lineRow, cv)
			// The hole is chrome, not content: nothing to select there.
			t.lineBody = append(t.lineBody, k > 0 && !hole)
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
			t.lines[i] = withBar(t.lines[i], bar)
		} else {
			t.lines[i] = withBar(t.lines[i], track)
		}
	}
}

// withBar appends the scrollbar cell mark to line; the line's trailing
// padding is concealed (see concealed).
func withBar(line, mark string) string {
	body := strings.TrimRight(line, " ")
	if !endsPlain(body) {
		return line + mark
	}
	return body + concealed(line[len(body):]) + mark
}

// padBefore pads a line narrower than w to w columns for text that
// follows it on the same row; the padding is concealed (see concealed)
// when the line ends in the default style.
func padBefore(s string, w int) string {
	sw := render.CellWidth(s)
	if sw >= w {
		return fit(s, w)
	}
	if !endsPlain(s) {
		return s + blank(w-sw)
	}
	return s + concealed(blank(w-sw))
}

// concealFrom is the shortest padding worth concealing: the writer erases
// a run of blanks only when the erase and the move after it are shorter
// than the run.
const concealFrom = 8

// concealed draws a run of blank padding hidden (SGR 8), which looks the
// same as plain spaces but changes what Bubble Tea's terminal writer does
// with a row that goes on after its padding (the scrollbar's mark, the
// status bar's keys, a message's time). A plain run is erased, and the
// writer then prices the cursor move across it by spelling out every
// cell, one string concatenation per cell; at a long answer's streaming
// rate that was a fifth of the writer's time. No erase can make a hidden
// cell, so the run is written as one space repeated (REP) instead, with
// no move to price (docs/performance.md, "Round 6").
func concealed(pad string) string {
	if len(pad) < concealFrom {
		return pad
	}
	return "\x1b[8m" + pad + "\x1b[m"
}

// endsPlain reports whether what follows s is drawn in the default style:
// s has no escape sequence, or ends by resetting the style.
func endsPlain(s string) bool {
	return !strings.Contains(s, "\x1b") || strings.HasSuffix(s, "\x1b[m") || strings.HasSuffix(s, "\x1b[0m")
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

// showsTop reports whether the last layout had the header line on screen.
func (t *transcript) showsTop() bool { return t.atTop }

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
	sw := render.CellWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "")
	}
	if sw < w {
		return s + blank(w-sw)
	}
	return s
}
