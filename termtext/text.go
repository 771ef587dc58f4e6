package termtext

import (
	"strings"
	"unicode/utf8"
)

// tabStop is the column multiple a tab advances to.
const tabStop = 4

// Text returns s cleaned for display as multi-line text: escape sequences
// (7-bit and C1) are removed with their parameters and bodies, CRLF
// becomes LF, a bare CR keeps only what was written after it on its line
// (the last state of a progress bar), tabs expand to the next multiple of
// four columns, every other control character (C0, DEL, C1) and every
// bidirectional control (isBidiControl: they could show text in another
// order than it is stored) is dropped, and invalid UTF-8 becomes U+FFFD.
// Right-to-left letters are kept. Text that needs none of this is
// returned as it is, without allocating.
func Text(s string) string {
	if isClean(s) {
		return s
	}
	return clean(s, false)
}

// Line is Text for text shown on one line (a title, a name, a status, an
// error): every line break (LF, a bare CR, CRLF) becomes one space, so
// the result holds no control character at all.
func Line(s string) string {
	if isClean(s) {
		if strings.IndexByte(s, '\n') < 0 {
			return s
		}
		return strings.ReplaceAll(s, "\n", " ")
	}
	return clean(s, true)
}

// clean is Text (oneLine false) or Line (oneLine true) for text that is
// not clean.
func clean(s string, oneLine bool) string {
	b := make([]byte, 0, len(s))
	col := 0       // column in the current line, for tab stops
	lineStart := 0 // index in b where the current line starts
	for i := 0; i < len(s); {
		c := s[i]
		if c == esc || isC1At(s, i) {
			i = sequenceEnd(s, i)
			continue
		}
		if c >= 0x20 && c < 0x7f {
			b = append(b, c)
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\r' && i < len(s) && s[i] == '\n':
			// CRLF: the LF that follows ends the line.
		case (r == '\r' || r == '\n') && oneLine:
			b = append(b, ' ')
			col++
		case r == '\r':
			// A bare CR returns to column 0: what follows overwrites the line.
			b = b[:lineStart]
			col = 0
		case r == '\n':
			b = append(b, '\n')
			col = 0
			lineStart = len(b)
		case r == '\t':
			n := tabStop - col%tabStop
			b = append(b, "    "[:n]...)
			col += n
		case r == utf8.RuneError && size == 1:
			b = utf8.AppendRune(b, utf8.RuneError)
			col++
		case isControl(r) || isBidiControl(r):
			// other control characters and bidi controls are dropped
		default:
			b = append(b, s[i-size:i]...)
			col++ // an approximation for wide runes; only tab stops use it
		}
	}
	return string(b)
}

// isControl reports whether r is a C0 control, DEL or a C1 control.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }

// isClean reports whether s holds no control character except LF (C0,
// DEL or C1), no bidi control and no invalid UTF-8, so that Text returns
// it unchanged.
func isClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 || isBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}
