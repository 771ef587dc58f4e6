package render

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Glamour pads every line of every block out to the wrap width with
// styled spaces and then passes those bytes, one rune at a time, through
// the writers of every enclosing block: most of the cost of a short line
// is its padding. The padding is trailing whitespace that tidyStyled
// removes again, so markdown that needs no wrapping is rendered by a
// glamour renderer that neither wraps nor pads, and is kept when every
// line it made fits well inside the wrap width: then the wrapping
// renderer would have broken no line, and the tidied lines are the same.
//
// The only other width glamour uses lays out tables, so markdown that may
// hold one always takes the wrapping renderer.

// fitSlack is how far inside the wrap width an unwrapped line must end to
// be taken as it is. Glamour wraps a block at the width less its
// indentation and twice its margin (left and right), and the line shows
// only the left margin; the embedded styles have margins only on code
// blocks (2 cells), so 4 cells leave room to spare.
const fitSlack = 4

// unwrapped returns the glamour renderer that neither wraps nor pads.
func (r *Renderer) unwrapped() *mdRenderer {
	if r.flow == nil {
		r.flow = newMDRenderer(r.theme.Markdown, 0)
	}
	return r.flow
}

// unwrappedLines renders src through the unwrapped renderer and returns
// the lines that show something, tidied and merged (none when glamour
// fails).
func (r *Renderer) unwrappedLines(src string) []string {
	out, err := r.render(r.unwrapped(), src, func() { r.flow = nil })
	if err != nil {
		return nil
	}
	var lines []string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.TrimSpace(ansi.Strip(l)) != "" {
			lines = append(lines, mergeRuns(tidyStyled(l)))
		}
	}
	return lines
}

// glamourFit renders src as the glamour renderer kept under key does,
// through the unwrapped renderer when that gives the same lines.
func (r *Renderer) glamourFit(src string, key int) (string, error) {
	if limit := wrapFor(key) - fitSlack; limit > 0 && mayFit(src, limit) {
		if out, ok := r.plainBlocks(src); ok && fitsWithin(out, limit) {
			return out, nil
		}
		if out, err := r.render(r.unwrapped(), src, func() { r.flow = nil }); err == nil && fitsWithin(out, limit) {
			return out, nil
		}
	}
	switch {
	case isParagraph(src):
		if out, ok := r.rewrap(src, wrapFor(key), "", 1); ok {
			return out, nil
		}
	case isTightList(src):
		if out, ok := r.rewrap(src, wrapFor(key), listBreakpoints, strings.Count(strings.Trim(src, "\n"), "\n")+1); ok {
			return out, nil
		}
	}
	return r.glamour(src, key)
}

// listBreakpoints are the characters glamour lets a block's lines (a
// list's among them) break after, besides spaces.
const listBreakpoints = " ,.;-+|"

// rewrap renders a source that is one paragraph, or one tight list of
// one-line items, and needs wrapping at width: glamour lays each out
// unwrapped, a line for the paragraph or for each item, wraps the lines
// at the width with lipgloss.Wrap (a list's with breakpoints), and pads
// them. So the unwrapped renderer's lines, wrapped the same way, are
// glamour's lines less their padding. ok is false when the unwrapped
// render does not have the lines expected, a wrapped line is still too
// wide, or the styles give the document, paragraphs or lists an indent
// or margin.
func (r *Renderer) rewrap(src string, width int, breakpoints string, lines int) (string, bool) {
	md := r.theme.Markdown
	for _, n := range []*uint{md.Document.Indent, md.Document.Margin, md.Paragraph.Indent, md.Paragraph.Margin, md.List.Indent, md.List.Margin} {
		if n != nil && *n != 0 {
			return "", false
		}
	}
	var shown []string
	switch {
	case breakpoints == "" && lines == 1:
		if line, ok := r.plainParagraph(src); ok {
			shown = []string{line}
		}
	case breakpoints == listBreakpoints:
		shown, _ = r.plainList(src)
	}
	if shown == nil {
		shown = r.unwrappedLines(src)
	}
	if len(shown) != lines {
		return "", false
	}
	wrapped := lipgloss.Wrap(strings.Join(shown, "\n"), width, breakpoints)
	// The wrap may leave a line too wide (a word cut at a hyphen, say);
	// glamour wraps that again around its padding: leave it to glamour.
	return wrapped, fitsWithin(wrapped, width)
}

// isParagraph reports whether src is plainly one paragraph: no blank
// line, a first line that starts with text (not a block's marker, a link
// reference definition or indented code), and no later line that could
// start another block or turn the paragraph into a heading or a table.
func isParagraph(src string) bool {
	src = strings.Trim(src, "\n")
	first, rest, more := strings.Cut(src, "\n")
	if first == "" || startsIndented(first) || !startsText(first) {
		return false
	}
	for line := range strings.SplitSeq(rest, "\n") {
		if !more {
			break
		}
		t := strings.TrimLeft(line, " \t")
		if t == "" || strings.ContainsRune("#>-+*=`~<|_", rune(t[0])) {
			return false
		}
		if item, _, _ := listItemInfo(t); item {
			return false
		}
	}
	return true
}

// isTightList reports whether src is plainly one tight list: every line
// a top-level item of the same kind (the same bullet, or numbers with the
// same delimiter) whose text starts with text (see startsText).
func isTightList(src string) bool {
	var kind byte
	for line := range strings.SplitSeq(strings.Trim(src, "\n"), "\n") {
		item, mark, _ := listItemInfo(line)
		if !item || startsIndented(line) || kind != 0 && mark != kind {
			return false
		}
		kind = mark
		_, text, _ := strings.Cut(line, " ")
		if text == "" || !startsText(text) {
			return false
		}
	}
	return kind != 0
}

// startsText reports whether a paragraph's first line starts with text:
// a letter, a digit that starts no list item, an opening quote or
// bracket (but not a link reference definition), or emphasis, strong
// emphasis or code that is not a list item, a rule or a fence.
func startsText(line string) bool {
	c := line[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '"' || c == '\'' || c == '(':
		return true
	case c >= '0' && c <= '9':
		item, _, _ := listItemInfo(line)
		return !item
	case c == '[':
		end := strings.IndexByte(line, ']')
		return end < 0 || !strings.HasPrefix(line[end+1:], ":")
	case c == '*' || c == '_':
		i := 1 // after "*", or after "**" (strong)
		if len(line) > 1 && line[1] == c {
			i = 2
		}
		return len(line) > i && line[i] != ' ' && line[i] != c && strings.Trim(line, string(c)+" ") != ""
	case c == '`':
		return !strings.HasPrefix(line, "``")
	}
	return false
}

// fitsWithin reports whether every line of out is at most limit cells
// wide. A tab counts as too wide: the wrapper counts it as one cell, the
// terminal as up to eight.
func fitsWithin(out string, limit int) bool {
	for line := range strings.SplitSeq(out, "\n") {
		if len(line) > limit && (strings.IndexByte(line, '\t') >= 0 || CellWidth(line) > limit) {
			return false
		}
	}
	return true
}

// mayFit guesses from the source whether its rendering needs no wrapping
// at limit cells, so that a render that will not fit is not tried: a
// paragraph's lines are joined into one, a code block's stay apart. It
// is false for markdown that may hold a table (whose layout depends on
// the width), whatever its size.
func mayFit(src string, limit int) bool {
	run := 0 // cells of the paragraph or list item the line belongs to
	var fenceChar byte
	fenceLen := 0
	for line := range strings.SplitSeq(src, "\n") {
		if ch, n, rest := fenceMarker(line); n >= 3 {
			switch {
			case fenceChar == 0 && (ch == '~' || !strings.ContainsRune(rest, '`')):
				fenceChar, fenceLen, run = ch, n, 0
				continue
			case fenceChar == ch && n >= fenceLen && strings.TrimSpace(rest) == "":
				fenceChar, run = 0, 0
				continue
			}
		}
		if fenceChar != 0 {
			if len(line)+3*strings.Count(line, "\t") > limit {
				return false
			}
			continue
		}
		t := strings.TrimSpace(line)
		if isDelimiterRow(t) {
			return false
		}
		item, _, _ := listItemInfo(line)
		heading := t != "" && t[0] == '#'
		if t == "" || item || heading {
			run = 0
		}
		if run > 0 {
			run++ // the soft break becomes a space
		}
		if run += len(t); run > limit {
			return false
		}
		if heading {
			run = 0 // a heading is one line
		}
	}
	return true
}

// isDelimiterRow reports whether a trimmed line could be a table's
// delimiter row: pipes, dashes, colons and spaces only, with at least one
// pipe and one dash.
func isDelimiterRow(t string) bool {
	if !strings.Contains(t, "|") || !strings.Contains(t, "-") {
		return false
	}
	return strings.Trim(t, "|-: \t") == ""
}
