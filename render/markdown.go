package render

import (
	"strings"

	"charm.land/glamour/v2"
)

// maxMarkdownRenderers bounds the glamour renderers kept (one per wrap
// width); resizing through many widths starts over rather than growing.
const maxMarkdownRenderers = 8

// termRenderer returns the glamour renderer for wrap width w, creating it
// once per (width, theme).
func (r *Renderer) termRenderer(w int) *glamour.TermRenderer {
	if tr, ok := r.md[w]; ok {
		return tr
	}
	if len(r.md) >= maxMarkdownRenderers {
		clear(r.md)
	}
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(r.theme.Markdown),
		glamour.WithWordWrap(w),
	)
	if err != nil {
		return nil
	}
	r.md[w] = tr
	return tr
}

// markdown renders src at width cells. The lines are tidied (no trailing
// padding, no leading or trailing blank lines) and each fits width. When
// glamour fails the text is shown wrapped and unstyled rather than lost.
func (r *Renderer) markdown(src string, width int) []string {
	src = sanitize(src)
	if strings.TrimSpace(src) == "" {
		return nil
	}
	r.stats.MarkdownRenders++
	r.stats.MarkdownBytes += len(src)
	var out string
	var err error
	if tr := r.termRenderer(width); tr != nil {
		out, err = tr.Render(src)
	}
	if out == "" || err != nil {
		return styleLines(r.theme.Text, wrapPlain(src, width))
	}
	raw := strings.Split(out, "\n")
	lines := make([]string, 0, len(raw))
	for _, l := range raw {
		for _, piece := range fitStyled(tidyStyled(l), width) {
			lines = append(lines, piece)
		}
	}
	return trimBlank(lines)
}

// mdStream is the streaming state of one open agent message at one width:
// the rendered lines of its stable prefix, built chunk by chunk as the
// prefix grows, and the last rendered unstable tail.
type mdStream struct {
	width       int
	stable      string // text[:n]: the source the stable lines were made from
	stableLines []string
	tail        string
	tailLines   []string
	tailValid   bool
}

// streamMarkdown renders the text of an open message. The text is split at
// its stable boundary (see stableBoundary): the part before it is rendered
// once, in chunks as the boundary moves forward, and only the tail after it
// is rendered again when the text grows. A text that no longer starts with
// the cached prefix (a replacing revision) or a new width starts over.
func (r *Renderer) streamMarkdown(c *itemCache, text string, width int) []string {
	st := c.md
	if st == nil || st.width != width || !strings.HasPrefix(text, st.stable) {
		st = &mdStream{width: width}
		c.md = st
	}
	if b := stableBoundary(text, len(st.stable)); b > len(st.stable) {
		chunk := r.markdown(text[len(st.stable):b], width)
		if len(chunk) > 0 {
			if len(st.stableLines) > 0 {
				st.stableLines = append(st.stableLines, "")
			}
			st.stableLines = append(st.stableLines, chunk...)
		}
		st.stable = text[:b]
		st.tailValid = false
	}
	tail := text[len(st.stable):]
	if !st.tailValid || tail != st.tail {
		st.tail, st.tailLines, st.tailValid = tail, r.markdown(tail, width), true
	}
	out := make([]string, 0, len(st.stableLines)+1+len(st.tailLines))
	out = append(out, st.stableLines...)
	if len(st.stableLines) > 0 && len(st.tailLines) > 0 {
		out = append(out, "")
	}
	return append(out, st.tailLines...)
}

// stableBoundary returns the offset of the last stable split point of text
// at or after from, or from when there is none. from must be 0 or a value
// this function returned for a prefix of text (such a point is outside any
// fenced code block).
//
// A split point is the start of a line that follows a blank line, outside
// a fenced code block, and that begins with a character other than
// whitespace or ':' (an indented line could continue a list item or be
// indented code, and ':' could attach a definition to the block before).
// Markdown before such a point renders the same whatever follows it.
func stableBoundary(text string, from int) int {
	best := from
	var fenceChar byte
	fenceLen := 0
	prevBlank := false
	for pos := from; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		complete := end >= 0
		if !complete {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		if fenceChar == 0 && prevBlank && pos > from && line != "" && !startsIndented(line) && line[0] != ':' {
			best = pos
		}
		if !complete {
			break
		}
		if ch, n, rest := fenceMarker(line); n >= 3 {
			switch {
			case fenceChar == 0 && (ch == '~' || !strings.ContainsRune(rest, '`')):
				fenceChar, fenceLen = ch, n
			case fenceChar == ch && n >= fenceLen && strings.TrimSpace(rest) == "":
				fenceChar, fenceLen = 0, 0
			}
		}
		prevBlank = strings.TrimSpace(line) == ""
		pos = end + 1
	}
	return best
}

func startsIndented(line string) bool { return line[0] == ' ' || line[0] == '\t' }

// fenceMarker reports the fence character and run length at the start of
// a line (after any indentation) and the rest of the line.
func fenceMarker(line string) (ch byte, n int, rest string) {
	t := strings.TrimLeft(line, " \t")
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0, 0, ""
	}
	ch = t[0]
	for n < len(t) && t[n] == ch {
		n++
	}
	return ch, n, t[n:]
}
