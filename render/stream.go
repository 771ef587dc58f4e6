package render

import (
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// mdStream is the streaming state of one agent message at one width: its
// text split at stable boundaries into chunks, each rendered once and
// framed once (gutter, indent), and the last rendered unstable tail. A
// frame costs the tail's render and an append of its lines, not a pass
// over the message; completing the message reuses the chunks.
type mdStream struct {
	width  int    // markdown wrap width
	indent string // put before every non-blank markdown line
	gutter string // put before every line: the unselected gutter

	stable string // text[:n]: the source of the chunks
	open   string // the opening fence line when stable ends inside a code block
	chunks []mdChunk
	// lines holds the framed lines: lines[0] is the header's slot, then
	// every chunk's lines (with the blank line joining it to the one
	// before). Calls append the tail and annotations after them in place,
	// so a returned slice is valid until the next call for the item.
	lines []string

	tail      string
	tailLines []string // framed
	tailValid bool

	lastN int // lines of the piece appendPiece framed last
}

// mdChunk is one stable piece of the message.
type mdChunk struct {
	start, end int    // its source is text[start:end]
	open       string // the fence line its source starts inside ("" outside)
	first, n   int    // its framed lines, lines[first:first+n] (no joining blank line)
	sep        bool   // a blank line joins it to the lines before
}

// agentFramed renders an agent message that streams, or that completed
// while it streamed at this width, straight into framed lines (gutter
// included), reusing what earlier calls rendered. ok is false for a
// message it does not handle (finished before it was seen streaming, or
// replaced); the caller then renders it whole.
func (r *Renderer) agentFramed(it *model.Item, c *itemCache, width int, o ItemOptions) (lines []string, glen int, ok bool) {
	cw := contentWidth(width)
	gutter := ""
	if cw < width {
		gutter = "  "
	}
	indent, mw := "  ", cw-2
	if cw < 12 {
		indent, mw = "", cw
	}
	text := it.Text()
	st := c.md
	fits := st != nil && st.width == mw && st.indent == indent && st.gutter == gutter && strings.HasPrefix(text, st.stable)
	header := gutter + clamp(r.agentHeader(it, o), cw)
	if live(it) {
		if !fits {
			st = &mdStream{width: mw, indent: indent, gutter: gutter, lines: []string{""}}
			c.md = st
		}
		r.advance(st, text)
		out := st.lines
		out[0] = header
		if len(out) > 1 && len(st.tailLines) > 0 && blankBefore(text, len(st.stable)) {
			out = append(out, gutter)
		}
		out = append(out, st.tailLines...)
		out = r.frameAnnotations(out, it, st)
		lines = out
	} else {
		c.md = nil
		if !fits {
			return nil, 0, false
		}
		lines = r.finish(st, text)
		lines[0] = header
		lines = r.frameAnnotations(lines, it, st)
	}
	if o.Selected && gutter != "" {
		sel := r.theme.Selected.Render("▌") + " "
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = sel + l[len(gutter):]
		}
		return out, len(sel), true
	}
	return lines, len(gutter), true
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

// advance moves the stable boundary as far as text allows, rendering and
// framing the new chunk once, and renders the tail after it when it
// changed.
func (r *Renderer) advance(st *mdStream, text string) {
	if b, open := scanBoundary(text, len(st.stable), st.open); b > len(st.stable) {
		start, first := len(st.stable), len(st.chunks)
		if st.open != "" && open == "" {
			// The chunk closes a code block that streamed in segments:
			// render the block again whole, from the chunk it opened in,
			// so that its highlighting is the one-shot render's.
			for first > 0 && st.chunks[first-1].open != "" {
				first--
			}
			first = max(first-1, 0)
			start = st.chunks[first].start
			st.lines = st.lines[:st.chunks[first].first-boolInt(st.chunks[first].sep)]
			st.chunks = st.chunks[:first]
		}
		chOpen := ""
		if first == len(st.chunks) && start == len(st.stable) {
			chOpen = st.open
		}
		var sep bool
		st.lines, sep = r.appendPiece(st, st.lines, text, start, withOpen(chOpen, text[start:b]))
		st.chunks = append(st.chunks, mdChunk{start: start, end: b, open: chOpen, first: len(st.lines) - st.lastN, n: st.lastN, sep: sep})
		st.stable, st.open = text[:b], open
		st.tailValid = false
	}
	tail := text[len(st.stable):]
	if !st.tailValid || tail != st.tail {
		st.tail, st.tailValid = tail, true
		st.tailLines = st.frameMarkdown(st.tailLines[:0], r.markdown(withOpen(st.open, tail), st.width))
	}
}

// appendPiece renders src (the markdown of text from start on) and appends
// its framed lines to dst, after a blank line when a blank line in text
// separates it from lines already there (beyond the header's slot). It
// records how many lines the piece itself had in st.lastN, and reports
// whether it put a blank line before them.
func (r *Renderer) appendPiece(st *mdStream, dst []string, text string, start int, src string) ([]string, bool) {
	md := r.markdown(src, st.width)
	sep := len(md) > 0 && len(dst) > 1 && blankBefore(text, start)
	if sep {
		dst = append(dst, st.gutter)
	}
	n := len(dst)
	dst = st.frameMarkdown(dst, md)
	st.lastN = len(dst) - n
	return dst, sep
}

// finish lays out the completed text from the streamed chunks: each chunk
// is reused as it was framed, and the text after the last one is rendered
// once. A code block still open in segments (its closing fence came with
// the end of the message, or never) is rendered again whole with the
// chunk it opened in, as advance does when a fence closes, so that its
// highlighting is the one-shot render's. The result starts with the header's slot and is
// a new slice the caller may keep.
func (r *Renderer) finish(st *mdStream, text string) []string {
	rest := mdChunk{start: len(st.stable), end: len(text), open: st.open, first: -1}
	chunks := append(st.chunks[:len(st.chunks):len(st.chunks)], rest)
	out := make([]string, 1, len(st.lines)+len(st.tailLines)+4)
	for i := 0; i < len(chunks); {
		j := i + 1
		for j < len(chunks) && chunks[j].open != "" {
			j++
		}
		ch := chunks[i]
		if j == i+1 && ch.first >= 0 {
			if ch.n > 0 {
				if len(out) > 1 && blankBefore(text, ch.start) {
					out = append(out, st.gutter)
				}
				out = append(out, st.lines[ch.first:ch.first+ch.n]...)
			}
		} else if src := text[ch.start:chunks[j-1].end]; src != "" {
			out, _ = r.appendPiece(st, out, text, ch.start, withOpen(ch.open, src))
		}
		i = j
	}
	return out
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
