package termtext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Visible returns s with all its text kept and every control character
// shown, nothing interpreted and nothing removed, for what a user approves
// (a tool's command, an approval summary): what is shown is what runs.
//
//   - C0 controls and DEL show as their Unicode Control Pictures: NUL ␀,
//     BEL ␇, BS ␈, TAB ␉, CR ␍, ESC ␛, ... US ␟, DEL ␡ (U+2400 + the
//     code, and U+2421). LF stays a line break.
//   - C1 controls (U+0080-U+009F, which have no pictures) and the Unicode
//     bidirectional controls that reorder text (U+202A-U+202E,
//     U+2066-U+2069, U+200E, U+200F, U+061C; see isBidiControl) show as
//     <U+009B>.
//   - Each byte of invalid UTF-8 shows as <0xFF>.
//
// An escape sequence therefore shows as text: ESC [2J is ␛[2J, an OSC 52
// clipboard write is ␛]52;c;…␇, and "rm -rf ~\rls" is "rm -rf ~␍ls".
func Visible(s string) string { return visible(s, false) }

// VisibleLine is Visible for one line: LF shows as ␤ (U+2424) too.
func VisibleLine(s string) string { return visible(s, true) }

func visible(s string, oneLine bool) string {
	if isVisibleClean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' && !oneLine:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteRune('\u2424')
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r == utf8.RuneError && size == 1:
			b.WriteString("<0x")
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(s[i]), 16)))
			b.WriteByte('>')
		case r >= 0x80 && r < 0xa0 || isBidiControl(r):
			b.WriteString("<U+")
			h := strings.ToUpper(strconv.FormatUint(uint64(r), 16))
			b.WriteString("0000"[len(h):])
			b.WriteString(h)
			b.WriteByte('>')
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isVisibleClean reports whether visible would return s unchanged.
func isVisibleClean(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && (c != '\n' || oneLine) || c == 0x7f {
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
