package render

import (
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// mdStream is the streaming state of one agent message at one width: its
// text split at stable boundaries into chunks, each rendered and framed
// (gutter, indent) once, and the last rendered unstable tail. A frame costs
// the tail's render and an append of its lines, not a pass over the
// message; completing the message reuses the chunks.
//
// Chunks nobody has asked to see are not rendered: when a caller needs
// only the bottom of the message (ItemTail, a window following a stream),
// the stable text above what fills it stays cold, a prefix of the chunks
// whose lines are made, in one render, only when the whole message is
// asked for.
type mdStream struct {
	width  int    // markdown wrap width
	indent string // put before every non-blank markdown line
	gutter string // put before every line: the unselected gutter

	stable string // text[:n]: the source of the chunks
	open   string // the opening fence line when stable ends inside a code block
	chunks []mdChunk
	hot    int // chunks[:hot] are cold (not rendered), chunks[hot:] are

	// flat holds the framed lines of chunks[:flatN] (all rendered), after
	// flat[0], the header's slot. A full layout appends the tail and the
	// annotations after them in place, so a returned slice is valid until
	// the next call for the item.
	flat  []string
	flatN int

	tail      string
	tailLines []string // framed
	tailValid bool

	seen int   // length of the text last laid out
	pts  []int // scratch: split points of a new span
}

// mdChunk is one stable piece of the message.
type mdChunk struct {
	start, end int      // its source is text[start:end]
	open       string   // the fence line its source starts inside ("" outside)
	lines      []string // framed, without a joining blank line; nil while cold
	at         int      // its place in flat (its joining blank line or first line), when below flatN
}

// streamLayout is where an agent message is laid out: the gutter, the
// indent and the markdown width for a row width.
func streamLayout(width int) (gutter, indent string, cw, mw int) {
	cw = contentWidth(width)
	if cw < width {
		gutter = "  "
	}
	indent, mw = "  ", cw-2
	if cw < 12 {
		indent, mw = "", cw
	}
	return gutter, indent, cw, mw
}

// stream returns the item's streaming state for this layout, starting over
// when the layout changed or the text no longer extends what was rendered.
// ok is false when a finished message has no usable state, or holds an
// HTML block or a link reference definition, which may change how the
// text around it renders (it renders whole instead).
func (c *itemCache) stream(it *model.Item, width int) (*mdStream, bool) {
	gutter, indent, _, mw := streamLayout(width)
	st := c.md
	if !live(it) && st != nil && holdsTogether(it.Text()) {
		st = nil
	}
	if st != nil && st.width == mw && st.indent == indent && st.gutter == gutter && strings.HasPrefix(it.Text(), st.stable) {
		return st, true
	}
	if !live(it) {
		c.md = nil
		return nil, false
	}
	c.md = &mdStream{width: mw, indent: indent, gutter: gutter, flat: []string{""}}
	return c.md, true
}

// agentFramed renders an agent message that streams, or that completed
// while it streamed at this width, straight into framed lines (gutter
// included), reusing what earlier calls rendered. ok is false for a
// message it does not handle (finished before it was seen streaming, or
// replaced); the caller then renders it whole.
func (r *Renderer) agentFramed(it *model.Item, c *itemCache, width int, o ItemOptions) (lines []string, glen int, ok bool) {
	st, ok := c.stream(it, width)
	if !ok {
		return nil, 0, false
	}
	text := it.Text()
	r.layOut(st, it, text, 0)
	r.materialize(st, text)
	out := st.assemble(text)
	out[0] = st.gutter + clamp(r.agentHeader(it, o), st.width+len(st.indent))
	if len(out) > 1 && len(st.tailLines) > 0 && blankBefore(text, len(st.stable)) {
		out = append(out, st.gutter)
	}
	out = append(out, st.tailLines...)
	out = r.frameAnnotations(out, it, st)
	if !live(it) {
		c.md = nil // finished: the item cache keeps the lines
	}
	out, glen = r.selected(out, st.gutter, o)
	return out, glen, true
}

// agentTail is agentFramed for a caller that needs only the last n lines:
// chunks above them are left cold. whole reports that lines are all of the
// message's (then the caller should take the full, cached layout).
func (r *Renderer) agentTail(it *model.Item, c *itemCache, width int, o ItemOptions, n int) (lines []string, whole, ok bool) {
	st, ok := c.stream(it, width)
	if !ok {
		return nil, false, false
	}
	text := it.Text()
	changed := len(text) != st.seen
	r.layOut(st, it, text, n)
	if st.hot == 0 {
		return nil, true, true
	}
	var below []string
	below = r.frameAnnotations(below, it, st)
	have := len(below) + st.linesOfTail(text, len(st.stable))
	i := len(st.chunks)
	for i > st.hot && have < n {
		i--
		have += st.linesOf(text, st.chunks[i])
	}
	if have < n {
		return nil, true, true
	}
	out := make([]string, 0, have+1)
	for k := i; k < len(st.chunks); k++ {
		ch := st.chunks[k]
		if len(ch.lines) == 0 {
			continue
		}
		if (k > 0 || len(out) > 0) && blankBefore(text, ch.start) {
			out = append(out, st.gutter)
		}
		out = append(out, ch.lines...)
	}
	if len(st.tailLines) > 0 && blankBefore(text, len(st.stable)) {
		out = append(out, st.gutter)
	}
	out = append(out, st.tailLines...)
	out = append(out, below...)
	out, _ = r.selected(out, st.gutter, o)
	if changed {
		r.stats.ItemRenders++
	}
	return out, false, true
}

// selected puts the selection marker in place of the plain gutter.
func (r *Renderer) selected(lines []string, gutter string, o ItemOptions) ([]string, int) {
	if !o.Selected || gutter == "" {
		return lines, len(gutter)
	}
	sel := r.theme.Selected.Render("▌") + " "
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = sel + l[len(gutter):]
	}
	return out, len(sel)
}

// agentHeader is the label line: a spinner while the message streams, or
// how it ended when it did not complete.
func (r *Renderer) agentHeader(it *model.Item, o ItemOptions) string {
	t := r.theme
	header := t.AgentLabel.Render("◆ Agent")
	switch {
	case live(it):
		header += " " + t.Accent.Render(spin(o, "…"))
	case it.Status == model.StatusStopped:
		header += t.Muted.Render(" · ") + t.Warning.Render("stopped")
	case it.Status == model.StatusFailed:
		header += t.Muted.Render(" · ") + t.Error.Render("failed")
	}
	return header
}

// layOut brings the stream up to text: an open message moves its stable
// boundary as far as text allows and renders the tail after it; a
// finished one makes the rest of its text the last chunk. need > 0 lets
// chunks above the last need lines stay cold.
func (r *Renderer) layOut(st *mdStream, it *model.Item, text string, need int) {
	st.seen = len(text)
	st.pts = st.pts[:0]
	if !live(it) {
		// The end of the message closes whatever is open.
		if len(text) > len(st.stable) || st.open != "" {
			scanBoundary(text, len(st.stable), st.open, &st.pts)
			st.tail, st.tailLines, st.tailValid = "", st.tailLines[:0], true
			r.extend(st, text, len(text), "", need)
		}
		return
	}
	b, open := scanBoundary(text, len(st.stable), st.open, &st.pts)
	tail := text[b:]
	if !st.tailValid || tail != st.tail || b > len(st.stable) {
		st.tail, st.tailValid = tail, true
		st.tailLines = st.frameMarkdown(st.tailLines[:0], r.markdown(withOpen(open, tail), st.width))
	}
	if b > len(st.stable) {
		r.extend(st, text, b, open, need)
	}
}

// extend makes text[len(stable):b] stable; open is the fence line b is
// inside. With need > 0 and a span long enough to fill need lines below
// its start (with the tail), only its last pieces are rendered and
// everything above them turns cold.
func (r *Renderer) extend(st *mdStream, text string, b int, open string, need int) {
	start := len(st.stable)
	// The span can be cut at split points outside fences.
	bounds := []int{start}
	for _, p := range st.pts {
		if p > start && p < b {
			bounds = append(bounds, p)
		}
	}
	bounds = append(bounds, b)
	k := len(bounds) - 2 // the last piece
	var late []mdChunk   // pieces rendered from the end, last first
	if need > 0 {
		have := st.linesOfTail(text, b)
		for ; k >= 1 && have < need; k-- {
			ch := r.renderChunk(st, text, bounds[k], bounds[k+1], "")
			have += st.linesOf(text, ch)
			late = append(late, ch)
		}
		if k >= 1 {
			// Enough lines below bounds[k+1]: everything above is cold.
			for i := range st.chunks {
				st.chunks[i].lines = nil
			}
			st.chunks = append(st.chunks, mdChunk{start: start, end: bounds[k+1], open: st.open})
			st.hot, st.flat, st.flatN = len(st.chunks), st.flat[:1], 0
			st.appendLate(late)
			st.stable, st.open = text[:b], open
			return
		}
	}
	// The rest of the span from its start, as one piece.
	end, endOpen := bounds[k+1], ""
	if k+1 == len(bounds)-1 {
		endOpen = open
	}
	from, pieceOpen := start, st.open
	if st.open != "" && endOpen == "" {
		// The piece closes a code block that streamed in segments: render
		// the block again whole, from the chunk it opened in, so that its
		// highlighting is the one-shot render's.
		j := len(st.chunks)
		for j > 0 && st.chunks[j-1].open != "" {
			j--
		}
		j = max(j-1, 0)
		if j < len(st.chunks) {
			from, pieceOpen = st.chunks[j].start, st.chunks[j].open
			if j < st.flatN {
				st.flat, st.flatN = st.flat[:st.chunks[j].at], j
			}
			st.chunks = st.chunks[:j]
			st.hot = min(st.hot, j)
		}
	}
	st.chunks = append(st.chunks, r.renderChunk(st, text, from, end, pieceOpen))
	st.appendLate(late)
	st.stable, st.open = text[:b], open
}

// linesOf is how many lines a rendered chunk takes, its joining blank
// line included.
func (st *mdStream) linesOf(text string, ch mdChunk) int {
	if len(ch.lines) == 0 {
		return 0
	}
	return len(ch.lines) + boolInt(blankBefore(text, ch.start))
}

// linesOfTail is the same for the tail starting at b.
func (st *mdStream) linesOfTail(text string, b int) int {
	if len(st.tailLines) == 0 {
		return 0
	}
	return len(st.tailLines) + boolInt(blankBefore(text, b))
}

// appendLate appends pieces rendered last first, in text order.
func (st *mdStream) appendLate(late []mdChunk) {
	for i := len(late) - 1; i >= 0; i-- {
		st.chunks = append(st.chunks, late[i])
	}
}

// renderChunk renders text[start:end] (inside the fence open when not "")
// into a chunk.
func (r *Renderer) renderChunk(st *mdStream, text string, start, end int, open string) mdChunk {
	lines := st.frameMarkdown(nil, r.markdown(withOpen(open, text[start:end]), st.width))
	if lines == nil {
		lines = []string{} // rendered, but shows nothing
	}
	return mdChunk{start: start, end: end, open: open, lines: lines}
}

// materialize renders the cold chunks, as one piece (they are a prefix of
// the text that ends outside any fence, so the piece renders as the
// chunks would have one by one).
func (r *Renderer) materialize(st *mdStream, text string) {
	if st.hot == 0 {
		return
	}
	ch := r.renderChunk(st, text, 0, st.chunks[st.hot-1].end, "")
	st.chunks = append([]mdChunk{ch}, st.chunks[st.hot:]...)
	st.hot, st.flat, st.flatN = 0, st.flat[:1], 0
}

// assemble brings flat up to every chunk (all rendered) and returns it.
func (st *mdStream) assemble(text string) []string {
	for i := st.flatN; i < len(st.chunks); i++ {
		ch := &st.chunks[i]
		ch.at = len(st.flat)
		if len(ch.lines) == 0 {
			continue
		}
		if len(st.flat) > 1 && blankBefore(text, ch.start) {
			st.flat = append(st.flat, st.gutter)
		}
		st.flat = append(st.flat, ch.lines...)
	}
	st.flatN = len(st.chunks)
	return st.flat
}

// frameMarkdown appends rendered markdown lines, framed: the gutter, then
// the indent before every non-blank line, each line measured once here
// (a chunk is framed once, however many frames show it).
func (st *mdStream) frameMarkdown(dst, md []string) []string {
	cw := st.width + len(st.indent)
	for _, l := range md {
		if l == "" {
			dst = append(dst, st.gutter)
			continue
		}
		dst = appendFramed(dst, st.indent+l, st.gutter, cw)
	}
	return dst
}

// frameAnnotations appends the message's annotation lines, framed.
func (r *Renderer) frameAnnotations(dst []string, it *model.Item, st *mdStream) []string {
	for _, l := range r.annotationLines(it, st.indent, st.width) {
		dst = appendFramed(dst, l, st.gutter, st.width+len(st.indent))
	}
	return dst
}
