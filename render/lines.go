package render

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// wrapPlain word-wraps plain text, cleaned by termtext (Text or Visible),
// to width cells, breaking words that do not fit. Blank lines are kept. It
// returns at least one line.
func wrapPlain(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimRight(line, " ")
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		for w := range strings.SplitSeq(ansi.Wrap(line, width, ""), "\n") {
			out = append(out, fitPlain(strings.TrimRight(w, " "), width)...)
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

// fitPlain cuts a plain line into pieces of at most width cells (a safety
// net behind ansi.Wrap, which may leave a wide grapheme at a line's end).
func fitPlain(line string, width int) []string {
	if ansi.StringWidth(line) <= width {
		return []string{line}
	}
	return fitStyled(line, width)
}

// CellWidth is ansi.StringWidth, faster on styled lines such as this
// package makes: printable ASCII is counted directly, CSI and OSC escape
// sequences are skipped, and only a run of other text between two escapes
// is handed to ansi.StringWidth (grapheme clusters never span an escape
// character, so the runs add up). Escapes of any other shape send the
// whole line to ansi.StringWidth.
func CellWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// parameters, then intermediates, then one final byte;
			// anything else is left to ansi.StringWidth.
			j := i + 2
			for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
				j++
			}
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c == 0x1b && i+1 < len(s) && s[i+1] == ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && s[j] != 0x1b {
				j++
			}
			switch {
			case j < len(s) && s[j] == 0x07:
				i = j + 1
			case j+1 < len(s) && s[j+1] == '\\':
				i = j + 2
			default:
				return ansi.StringWidth(s)
			}
		case c == 0x1b:
			return ansi.StringWidth(s)
		default:
			j := i + 1
			for j < len(s) && s[j] != 0x1b {
				j++
			}
			w += ansi.StringWidth(s[i:j])
			i = j
		}
	}
	return w
}

// fitStyled hard-wraps a styled line into pieces of at most width cells.
// ansi.Cut carries the active SGR state into every piece, so a wrapped
// piece keeps its colour.
func fitStyled(line string, width int) []string {
	total := CellWidth(line)
	if total <= width {
		return []string{line}
	}
	var out []string
	for start := 0; start < total; {
		piece := ansi.Cut(line, start, start+width)
		pw := ansi.StringWidth(piece)
		if pw == 0 {
			// A grapheme wider than the whole width: show a placeholder.
			out = append(out, "…")
			start++
			continue
		}
		out = append(out, piece)
		start += pw
	}
	return out
}

// clamp guarantees the width contract for one line: a line wider than
// width is truncated with an ellipsis.
func clamp(line string, width int) string {
	if CellWidth(line) <= width {
		return line
	}
	if width <= 1 {
		return ansi.Truncate(line, width, "")
	}
	return ansi.Truncate(line, width, "…")
}

// truncateEnd cuts plain text to width cells with an ellipsis.
func truncateEnd(s string, width int) string {
	if width < 1 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// styleLines renders every line with st. Styles are applied line by line
// so that each line is self-contained (it resets its own attributes).
func styleLines(st lipgloss.Style, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			continue
		}
		out[i] = st.Render(l)
	}
	return out
}

// prefixLines puts first before the first line and rest before the others.
func prefixLines(first, rest string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		out[i] = p + l
	}
	return out
}

// tidyStyled removes the trailing (styled) whitespace glamour pads lines
// with and the SGR sequences that have no visible effect (a style set and
// reset with nothing between), so cached lines stay small. A line that
// still holds an escape sequence ends with a reset.
func tidyStyled(line string) string {
	// Drop trailing spaces and SGR sequences.
	end := len(line)
	for end > 0 {
		if line[end-1] == ' ' {
			end--
			continue
		}
		if n := trailingSGR(line[:end]); n > 0 {
			end -= n
			continue
		}
		break
	}
	line = line[:end]
	if strings.IndexByte(line, 0x1b) < 0 {
		return line
	}
	// Drop sequences that are reset before anything is printed.
	var b strings.Builder
	b.Grow(len(line) + 3)
	pending := "" // SGR sequences not yet followed by text
	eachPiece(line, func(seq string) {
		if isReset(seq) {
			pending = ""
			if b.Len() > 0 {
				pending = "\x1b[m"
			}
		} else {
			pending += seq
		}
	}, func(text string) {
		b.WriteString(pending)
		pending = ""
		b.WriteString(text)
	})
	b.WriteString("\x1b[m")
	return b.String()
}

// leadingSGR is the length of the SGR sequence (CSI ... m) s starts with,
// or 0.
func leadingSGR(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		default:
			return 0
		}
	}
	return 0
}

// trailingSGR is the length of the SGR sequence s ends with, or 0.
func trailingSGR(s string) int {
	if len(s) < 3 || s[len(s)-1] != 'm' {
		return 0
	}
	i := strings.LastIndexByte(s, 0x1b)
	if i < 0 || leadingSGR(s[i:]) != len(s)-i {
		return 0
	}
	return len(s) - i
}

// trimBlank drops leading and trailing lines that show nothing.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[0])) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// tailLines returns the last n lines of s (without a trailing empty line)
// and how many lines came before them. It scans from the end, so it costs
// O(size of the tail), not O(len(s)).
func tailLines(s string, n int) (tail string, skipped int) {
	s = strings.TrimRight(s, "\n")
	if n <= 0 || s == "" {
		return "", strings.Count(s, "\n") + boolInt(s != "")
	}
	end := len(s)
	i := end
	for k := 0; k < n; k++ {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return s, 0
		}
		i = j
	}
	return s[i+1:], strings.Count(s[:i], "\n") + 1
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// firstLine returns the first line of s with visible content, trimmed.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// mergeRuns joins runs of one style that glamour closes and opens again
// at once (it styles each text segment of the parser on its own, so a
// paragraph is a run per few words): a reset followed by the very
// sequences in force before it is dropped. The line looks the same and
// is shorter, and the lines of two renders that segmented the same text
// differently become equal. line is tidied (tidyStyled).
func mergeRuns(line string) string {
	if strings.Count(line, "\x1b[m")+strings.Count(line, "\x1b[0m") < 2 {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	active, pending := "", "" // the sequences in force since the last reset; those not yet followed by text
	eachPiece(line, func(seq string) {
		if isReset(seq) {
			pending = "\x1b[m"
		} else {
			pending += seq
		}
	}, func(text string) {
		switch {
		case pending == "":
		case pending == "\x1b[m"+active && active != "":
			// The same style again: keep the run going.
		case strings.HasPrefix(pending, "\x1b[m"):
			b.WriteString(pending)
			active = pending[len("\x1b[m"):]
		default:
			b.WriteString(pending)
			active += pending
		}
		pending = ""
		b.WriteString(text)
	})
	b.WriteString(pending)
	return b.String()
}

// eachPiece calls sgr with each SGR sequence of line, in order, and text
// with each run of the other bytes between them (an escape sequence that
// is not SGR, an OSC 8 link say, goes with the text).
func eachPiece(line string, sgr, text func(string)) {
	for i := 0; i < len(line); {
		if n := leadingSGR(line[i:]); n > 0 {
			sgr(line[i : i+n])
			i += n
			continue
		}
		j := i + 1
		for j < len(line) && line[j] != 0x1b {
			j++
		}
		text(line[i:j])
		i = j
	}
}

func isReset(seq string) bool { return seq == "\x1b[m" || seq == "\x1b[0m" }
