package render

import "strings"

// ProseMeasure is the widest a paragraph of prose wraps at: on a very wide
// terminal lines of text stay readable. Top-level fenced code blocks are
// not held to it; they use the whole width.
const ProseMeasure = 100

// proseWidth is the wrap width for prose in a column width cells wide.
func proseWidth(width int) int { return min(width, ProseMeasure) }

// wrapFor is the word-wrap width of the glamour renderer kept under key in
// Renderer.md: a positive key is a column width whose prose wraps at the
// measure, a negative one a full width (-key) for code blocks.
func wrapFor(key int) int {
	if key < 0 {
		return -key
	}
	return proseWidth(key)
}

// glamourMeasured renders markdown at width: prose at the measure, and on
// a terminal wider than it each top-level fenced code block (a fence at
// column 0 after a blank line or at the start) at the whole width. The
// pieces are split where the block boundaries already are, so each renders
// as it would in place; the caller collapses the blank lines between them.
//
// fast renders through glamourFit, and top-level code blocks with
// codeLines, at any width; otherwise every piece goes to glamour's
// wrapping renderers (what the fast way is checked against).
func (r *Renderer) glamourMeasured(fast bool, src string, width int) (string, error) {
	render := r.glamour
	if fast {
		render = r.glamourFit
	}
	if width <= ProseMeasure && (!fast || holdsTogether(src)) {
		return render(src, width)
	}
	parts := splitFences(src)
	if len(parts) == 1 && !parts[0].code {
		if fast {
			return r.prose(src, width)
		}
		return render(src, width)
	}
	batched := make([]string, len(parts))
	done := make([]bool, len(parts))
	if fast {
		r.batchProse(parts, width, batched, done)
	}
	var b strings.Builder
	for i, p := range parts {
		key := width
		if p.code && width > ProseMeasure {
			key = -width
		}
		out, ok := batched[i], done[i]
		switch {
		case ok:
		case fast && p.code:
			out, ok = r.codeLines(p.text, wrapFor(key)-fitSlack)
		case fast:
			var err error
			if out, err = r.prose(p.text, key); err != nil {
				return "", err
			}
			ok = true
		}
		if !ok {
			var err error
			if out, err = render(p.text, key); err != nil {
				return "", err
			}
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// mdPart is a piece of a markdown source: prose, or one fenced code block
// with its fences.
type mdPart struct {
	text string
	code bool
}

// splitFences cuts src around its top-level fenced code blocks: a fence
// line at column 0 that starts the source or follows a blank line opens
// one, and the matching fence (or the end) closes it. Any other fence
// (indented, or right after a line of text) keeps what follows in the
// prose until it closes.
func splitFences(src string) []mdPart {
	var parts []mdPart
	start := 0
	var fenceChar, inner byte
	fenceLen, innerLen := 0, 0
	prevBlank := true
	flush := func(end int, code bool) {
		if t := src[start:end]; strings.TrimSpace(t) != "" {
			parts = append(parts, mdPart{t, code})
		}
		start = end
	}
	for pos := 0; pos < len(src); {
		end := strings.IndexByte(src[pos:], '\n')
		next := len(src)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(src)
		}
		line := src[pos:end]
		ch, n, rest := fenceMarker(line)
		opens := n >= 3 && (ch == '~' || !strings.ContainsRune(rest, '`'))
		switch {
		case fenceChar == 0 && inner == 0 && opens && prevBlank && !startsIndented(line):
			flush(pos, false)
			fenceChar, fenceLen = ch, n
		case fenceChar == 0 && inner == 0 && opens:
			// A fence that interrupts a paragraph or is indented stays in
			// the prose, and so do the fence lines inside it.
			inner, innerLen = ch, n
		case inner != 0 && ch == inner && n >= innerLen && strings.TrimSpace(rest) == "":
			inner = 0
		case fenceChar != 0 && ch == fenceChar && n >= fenceLen && strings.TrimSpace(rest) == "":
			flush(next, true)
			fenceChar = 0
		}
		prevBlank = strings.TrimSpace(line) == ""
		pos = next
	}
	flush(len(src), fenceChar != 0)
	return parts
}

// prose renders markdown without top-level fences through glamourFit:
// whole when it fits the width unwrapped (or cannot be cut), and
// otherwise cut where a blank line ends a block (the places a streamed
// message is cut, where the text before renders the same whatever
// follows), runs of blocks that fit going together and each other block
// alone, so that a paragraph is wrapped the cheap way and only the rest
// takes glamour's wrapping renderer. Text with a link reference
// definition (which serves the whole message) or an HTML block (which
// glamour spaces by its neighbours) is not cut.
func (r *Renderer) prose(src string, key int) (string, error) {
	limit := wrapFor(key) - fitSlack
	if limit <= 0 || mayFit(src, limit) || holdsTogether(src) {
		return r.glamourFit(src, key)
	}
	cuts := blockCuts(src)
	var b strings.Builder
	add := func(piece string) error {
		out, err := r.glamourFit(piece, key)
		if err != nil {
			return err
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(out)
		return nil
	}
	group := 0 // start of the run of blocks that fit
	for i := 1; i < len(cuts); i++ {
		from, to := cuts[i-1], cuts[i]
		if mayFit(src[from:to], limit) {
			continue
		}
		if group < from {
			if err := add(src[group:from]); err != nil {
				return "", err
			}
		}
		if err := add(src[from:to]); err != nil {
			return "", err
		}
		group = to
	}
	if group < len(src) {
		if err := add(src[group:]); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// holdsTogether reports whether a line of src could start an HTML block
// or be a link reference definition (see holdsLine).
func holdsTogether(src string) bool {
	for line := range strings.SplitSeq(src, "\n") {
		if holdsLine(line, true) {
			return true
		}
	}
	return false
}

// blockCuts returns where src can be cut into pieces that render as they
// do in place: its start, the stream's split points that follow a blank
// line (a block ends there), and its end.
func blockCuts(src string) []int {
	var pts []int
	scanBoundary(src, 0, "", &pts)
	cuts := []int{0}
	for _, p := range pts {
		if blankBefore(src, p) {
			cuts = append(cuts, p)
		}
	}
	return append(cuts, len(src))
}
