package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/termtext"
)

// maxMarkdownRenderers bounds the glamour renderers kept (one per wrap
// width); resizing through many widths starts over rather than growing.
const maxMarkdownRenderers = 8

// termRenderer returns the markdown renderer for wrap width w, creating it
// once per (width, theme).
func (r *Renderer) termRenderer(w int) *mdRenderer {
	if tr, ok := r.md[w]; ok {
		return tr
	}
	if len(r.md) >= maxMarkdownRenderers {
		clear(r.md)
	}
	tr := newMDRenderer(r.theme.Markdown, wrapFor(w))
	r.md[w] = tr
	return tr
}

// markdown renders src at width cells. The lines are tidied (no trailing
// padding, no leading or trailing blank lines, no two blank lines in a
// row) and each fits width. When
// glamour fails the text is shown wrapped and unstyled rather than lost.
func (r *Renderer) markdown(src string, width int) []string {
	src = termtext.Text(src)
	if strings.TrimSpace(src) == "" {
		return nil
	}
	r.stats.MarkdownRenders++
	r.stats.MarkdownBytes += len(src)
	return r.markdownWith(true, src, width)
}

// markdownWith is markdown's work, rendering the fast way or, to check
// it, through glamour's wrapping renderers alone (see glamourMeasured).
func (r *Renderer) markdownWith(fast bool, src string, width int) []string {
	out, err := r.glamourMeasured(fast, src, width)
	if out == "" || err != nil {
		return styleLines(r.theme.Text, wrapPlain(src, width))
	}
	raw := strings.Split(out, "\n")
	lines := make([]string, 0, len(raw))
	blank := false
	for _, l := range raw {
		l = mergeRuns(tidyStyled(l))
		if strings.TrimSpace(ansi.Strip(l)) == "" {
			// Runs of blank lines collapse to one: glamour's spacing after
			// some blocks differs from the one blank line streamed chunks
			// are joined with, and rows stay compact.
			if !blank {
				lines = append(lines, "")
			}
			blank = true
			continue
		}
		blank = false
		lines = append(lines, fitStyled(l, width)...)
	}
	return trimBlank(lines)
}

// glamour renders src with the glamour renderer kept under key.
func (r *Renderer) glamour(src string, key int) (string, error) {
	return r.render(r.termRenderer(key), src, func() { delete(r.md, key) })
}

// render runs the third-party markdown renderer tr, turning a panic
// inside it into an error so that a message it cannot handle is shown as
// plain text instead of taking the program down; drop then forgets tr,
// whose internal state is suspect.
func (r *Renderer) render(tr *mdRenderer, src string, drop func()) (out string, err error) {
	if tr == nil {
		return "", errNoRenderer
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("markdown renderer panicked: %v", p)
			drop()
		}
	}()
	return tr.Render(src)
}

var errNoRenderer = errors.New("no markdown renderer")

// withOpen puts a fence's opening line back before markdown that starts
// inside the fenced block.
func withOpen(open, src string) string {
	if open == "" {
		return src
	}
	return open + "\n" + src
}

// indentLines puts indent before every non-blank line, in place.
func indentLines(indent string, lines []string) []string {
	if indent == "" {
		return lines
	}
	for i, l := range lines {
		if l != "" {
			lines[i] = indent + l
		}
	}
	return lines
}

// stableBoundary returns the offset of the last stable split point of text
// at or after from, or from when there is none. from must be 0 or a value
// this function returned for a prefix of text (such a point is outside any
// fenced code block).
//
// A split point is the start of a complete-enough line, outside a fenced
// code block and not indented (an indented line could continue a list
// item or be indented code), that either
//
//   - follows a blank line, does not start with ':' (which could attach a
//     definition to the block before), does not start a list item
//     when the block before the blank line held one (the two would be one
//     loose list), and neither it nor the block before the blank line
//     holds to its neighbours (see holdsLine); or
//   - starts the next item of the list the previous line belongs to (same
//     bullet, or the next number), so that a long tight list streams in
//     pieces too.
//
// Markdown before such a point renders the same whatever follows it.
func stableBoundary(text string, from int) int {
	b, _ := scanBoundary(text, from, "", nil)
	return b
}

// codeSegmentLines is how many lines of an open fenced code block are
// rendered together: the block streams in pieces of this many lines.
const codeSegmentLines = 8

// scanBoundary is stableBoundary for a scan that may start inside a fenced
// code block: open is the fence's opening line when from is inside one
// ("" otherwise). It returns the boundary and the opening line of the
// fence the boundary is inside ("" when outside one).
//
// Inside a fence that opened at column 0, the start of a line is also a
// split point when the line and the one before it are not blank, the line
// does not start with the fence character (it could close the fence), and
// at least codeSegmentLines lines of code lie between it and the previous
// split point or the opening line. The part after such a point is
// rendered behind a copy of the opening line, so a long code block
// streams in segments; highlighting that spans a segment boundary (a
// multi-line string, say) may differ until the message completes.
//
// When pts is not nil, every split point found outside a fenced block is
// appended to it (the boundary is the last of them unless it is inside a
// fence): the places where a long new span can be cut into chunks that
// each render the same alone.
func scanBoundary(text string, from int, open string, pts *[]int) (int, string) {
	best, bestOpen := from, open
	var fenceChar byte
	fenceLen := 0
	fenceOpen, fenceLines := "", 0
	if open != "" {
		fenceChar, fenceLen, _ = fenceMarker(open)
		fenceOpen = open
	}
	prevBlank := false
	// listBefore: the last block before the current blank run had a list
	// item; listNow: the current block has one. mark and num are the
	// current top-level list's marker and the number its last item shows.
	listBefore, listNow := false, false
	var mark byte
	num := 0
	// simple: the current top-level item has only its line, plain
	// continuation lines and nested items (glamour spaces anything else
	// differently when the list is cut after it).
	simple := false
	// heldBefore: the last block before the current blank run holds to
	// its neighbours (an HTML block, a link reference definition);
	// heldNow: the current block does.
	heldBefore, heldNow := false, false
	for pos := from; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		complete := end >= 0
		if !complete {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		item, m, n := listItemInfo(line)
		if fenceChar == 0 && pos > from && line != "" && !startsIndented(line) {
			switch {
			case prevBlank:
				// An unfinished line of digits may yet become "10. item".
				maybeItem := item || !complete && len(line) <= 9 && strings.Trim(line, "0123456789") == ""
				if line[0] != ':' && (!listBefore || !maybeItem) && !heldBefore && !holdsLine(line, complete) {
					best, bestOpen = pos, ""
					if pts != nil {
						*pts = append(*pts, pos)
					}
				}
			case item && listNow && simple && m == mark && (m != '.' && m != ')' || n == num+1):
				best, bestOpen = pos, ""
				if pts != nil {
					*pts = append(*pts, pos)
				}
			}
		}
		if fenceChar != 0 && fenceOpen[0] == fenceChar && pos > from && !prevBlank && fenceLines >= codeSegmentLines {
			if t := strings.TrimLeft(line, " \t"); t != "" && t[0] != fenceChar {
				best, bestOpen, fenceLines = pos, fenceOpen, 0
			}
		}
		if !complete {
			break
		}
		opened := false
		if ch, fl, rest := fenceMarker(line); fl >= 3 {
			switch {
			case fenceChar == 0 && (ch == '~' || !strings.ContainsRune(rest, '`')):
				fenceChar, fenceLen = ch, fl
				fenceOpen, fenceLines, opened = line, 0, true
			case fenceChar == ch && fl >= fenceLen && strings.TrimSpace(rest) == "":
				fenceChar, fenceLen, fenceOpen = 0, 0, ""
			}
		}
		if fenceChar != 0 && !opened {
			fenceLines++
		}
		blank := strings.TrimSpace(line) == ""
		if fenceChar == 0 && !blank && holdsLine(line, true) {
			heldNow = true
		}
		if t := strings.TrimLeft(line, " \t"); blank || fenceChar != 0 || (!item && t != "" && strings.ContainsRune("`~>|#", rune(t[0]))) {
			simple = false
		}
		switch {
		case blank && !prevBlank:
			listBefore, listNow = listNow, false
			heldBefore, heldNow = heldNow, false
		case !blank && fenceChar == 0 && item:
			if !startsIndented(line) {
				// glamour numbers an ordered list from its first number
				// by position, whatever the later items say.
				continues := m == mark && (listNow || prevBlank && listBefore)
				if continues && (m == '.' || m == ')') {
					num++
				} else {
					num = n
				}
				mark, simple = m, true
			}
			listNow = true
		case !blank && prevBlank && listBefore && startsIndented(line):
			// An indented block after a list continues its last item.
			listNow = true
		}
		prevBlank = blank
		pos = end + 1
	}
	return best, bestOpen
}

// blankBefore reports whether the line before offset b (a line start
// after the first line) is blank: chunks split there are joined with a
// blank line, chunks split inside a tight list are not.
func blankBefore(text string, b int) bool {
	if b < 2 {
		return false
	}
	prev := text[strings.LastIndexByte(text[:b-1], '\n')+1 : b-1]
	return strings.TrimSpace(prev) == ""
}

// listItemInfo reports whether a line starts a list item ("-", "+", "*",
// or up to nine digits and "." or ")", then a space, a tab or the line's
// end), its marker ('-', '+', '*', '.' or ')') and, for an ordered item,
// its number.
func listItemInfo(line string) (ok bool, mark byte, num int) {
	t := strings.TrimLeft(line, " ")
	if t == "" {
		return false, 0, 0
	}
	n := 0
	switch t[0] {
	case '-', '+', '*':
		mark, n = t[0], 1
	default:
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			num = num*10 + int(t[n]-'0')
			n++
		}
		if n == 0 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
			return false, 0, 0
		}
		mark = t[n]
		n++
	}
	if n == len(t) || t[n] == ' ' || t[n] == '\t' {
		return true, mark, num
	}
	return false, 0, 0
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

// holdsLine reports whether a line (complete or still growing) could
// start an HTML block, which glamour spaces by the blocks around it, or
// be a link reference definition, which serves the text around it:
// markdown is not cut next to either.
func holdsLine(line string, complete bool) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || t == "" {
		return false
	}
	if t[0] == '<' {
		return true
	}
	if t[0] != '[' {
		return false
	}
	end := strings.IndexByte(t, ']')
	// A growing line may yet put the ':' after its label.
	return end > 0 && strings.HasPrefix(t[end+1:], ":") || !complete && (end < 0 || end == len(t)-1)
}
