// Package termtexttest holds hostile inputs for every class of control
// character and escape sequence, and checks that text bound for a terminal
// carries none of them raw. The tests of every package that prints host
// or agent text (termtext, render, tui, the command line) use it.
package termtexttest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Marker is the text every hostile input carries next to (or inside) its
// escape sequence, so that a test can tell the payload on screen.
const Marker = "PWN"

// Case is one hostile input.
type Case struct {
	// Name says which class of control or sequence In holds.
	Name string
	// In is the hostile text.
	In string
	// Leak, when not "", is a piece of In that output must never contain:
	// the raw sequence followed by the marker. CheckStyled needs it for
	// the sequences it lets through as the program's own styling (SGR and
	// OSC 8); for the others any ESC is already an error.
	Leak string
}

// Cases returns a fresh list of hostile inputs: every C0 class (BEL, BS,
// bare CR, VT, FF, NUL, SO/SI, ESC alone), DEL, C1 controls as UTF-8
// (NEL, CSI, OSC, DCS, ST, ...), 7-bit CSI (erase screen, colour, cursor
// movement), OSC 0 and 2 (window title), OSC 8 (hyperlink) and OSC 52
// (clipboard) terminated by BEL and by ST, DCS, APC, PM, SOS, other
// escapes (charset, reset), unterminated strings, invalid UTF-8 and the
// bidi controls (overrides, embeddings, isolates, marks).
func Cases() []Case {
	return []Case{
		{Name: "C0 BEL", In: "ring\x07" + Marker},
		{Name: "C0 BS", In: "rm -rf ~" + strings.Repeat("\x08", 8) + "ls " + Marker},
		{Name: "C0 bare CR", In: "rm -rf ~\rls " + Marker},
		{Name: "C0 VT FF", In: "a\x0bb\x0cc " + Marker},
		{Name: "C0 NUL", In: "nul\x00" + Marker},
		{Name: "C0 SO SI", In: "\x0e" + Marker + "\x0f"},
		{Name: "C0 others", In: "\x01\x02\x03\x04\x05\x06\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1c\x1d\x1e\x1f" + Marker},
		{Name: "C0 ESC alone", In: Marker + " ends with ESC\x1b"},
		{Name: "C0 ESC before a line break", In: "\x1b\n" + Marker},
		{Name: "DEL", In: "del\x7f" + Marker},
		{Name: "C1 NEL RI IND", In: "\u0085\u008d\u0084" + Marker},
		{Name: "C1 CSI erase", In: "\u009b2J" + Marker},
		{Name: "C1 CSI colour", In: "\u009b31m" + Marker + "\u009b0m"},
		{Name: "C1 OSC 52 BEL", In: "\u009d52;c;UFdO\a" + Marker},
		{Name: "C1 OSC 0 ST", In: "\u009d0;" + Marker + "\u009c"},
		{Name: "C1 DCS", In: "\u0090P1$q" + Marker + "\u009c"},
		{Name: "C1 APC PM SOS", In: "\u009f" + Marker + "\u009c\u009e" + Marker + "\u009c\u0098" + Marker + "\u009c"},
		{Name: "C1 all", In: c1All() + Marker},
		{Name: "CSI erase screen", In: "\x1b[2J\x1b[H" + Marker},
		{Name: "CSI colour", In: "\x1b[5;7;31m" + Marker + "\x1b[0m", Leak: "\x1b[5;7;31m" + Marker},
		{Name: "CSI cursor up erase line", In: "rm -rf ~\n\x1b[1A\x1b[2K" + Marker},
		{Name: "CSI private mode", In: "\x1b[?1049h\x1b[?25l" + Marker},
		{Name: "OSC 0 title BEL", In: "\x1b]0;" + Marker + " title\x07"},
		{Name: "OSC 2 title ST", In: "\x1b]2;" + Marker + " title\x1b\\"},
		{Name: "OSC 8 hyperlink", In: "\x1b]8;;https://" + Marker + ".example/\x1b\\click\x1b]8;;\x1b\\", Leak: "\x1b]8;;https://" + Marker},
		{Name: "OSC 8 hyperlink BEL", In: "\x1b]8;;https://" + Marker + ".example/\aclick\x1b]8;;\a", Leak: "\x1b]8;;https://" + Marker},
		{Name: "OSC 52 clipboard BEL", In: "\x1b]52;c;UFdO\x07" + Marker},
		{Name: "OSC 52 clipboard ST", In: "\x1b]52;c;UFdO\x1b\\" + Marker},
		{Name: "DCS", In: "\x1bP1$q" + Marker + "\x1b\\"},
		{Name: "APC", In: "\x1b_APC " + Marker + "\x1b\\"},
		{Name: "PM", In: "\x1b^" + Marker + "\x1b\\"},
		{Name: "SOS", In: "\x1bX" + Marker + "\x1b\\"},
		{Name: "ESC charset reset", In: "\x1b(0\x1b#8\x1bc\x1b7\x1bM" + Marker},
		{Name: "OSC unterminated", In: Marker + " before \x1b]0;evil title"},
		{Name: "invalid UTF-8", In: "bad \xff\xfe " + Marker},
		{Name: "8-bit CSI byte", In: "\x9b2J\x9d0;t\x07" + Marker},
		{Name: "truncated rune before OSC", In: "\xc2\x1b]0;" + Marker + "\x07"},
		{Name: "bidi override", In: "ls \u202e" + Marker + "gnp.exe"},
		{Name: "bidi embeddings", In: "\u202a\u202b" + Marker + "\u202c\u202d"},
		{Name: "bidi isolates", In: "\u2066\u2067" + Marker + "\u2068\u2069"},
		{Name: "bidi marks", In: "a\u200e" + Marker + "\u200f\u061c"},
		{Name: "mixed", In: "\x1b]0;" + Marker + "\x07\x1b[31m\u009b1;1H\r\n\t" + Marker + "\x1b]52;c;UFdO\x1b\\\x00\x7f"},
	}
}

// c1All is every C1 control (U+0080-U+009F) written as UTF-8.
func c1All() string {
	var b strings.Builder
	for r := rune(0x80); r < 0xa0; r++ {
		b.WriteRune(r)
	}
	return b.String()
}

// CheckPlain returns an error naming the first thing in out that must not
// reach a terminal raw: invalid UTF-8, ESC, BEL or any other C0 control
// but LF (TAB and CR included), DEL, a C1 control, or a bidi control
// (which could show text in another order than it is stored).
func CheckPlain(out string) error { return check(out, false, true) }

// CheckLine is CheckPlain for one line (a window title): LF is refused
// too.
func CheckLine(out string) error { return check(out, false, false) }

// CheckStyled is CheckPlain for a screen the program styled itself: SGR
// sequences (ESC [ digits ; : m) and OSC 8 hyperlinks are allowed, but
// none of the Leak pieces of cases may appear.
func CheckStyled(out string, cases []Case) error {
	if err := check(out, true, true); err != nil {
		return err
	}
	for _, c := range cases {
		if c.Leak != "" && strings.Contains(out, c.Leak) {
			return fmt.Errorf("the raw sequence of %q reached the output: %q", c.Name, context(out, strings.Index(out, c.Leak)))
		}
	}
	return nil
}

func check(out string, styled, lf bool) error {
	for i := 0; i < len(out); {
		c := out[i]
		if c == 0x1b && styled {
			if n := ownSequence(out[i:]); n > 0 {
				i += n
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Errorf("invalid UTF-8 byte 0x%02X at %d: %q", c, i, context(out, i))
		case r == '\n' && lf:
		case r < 0x20 || r >= 0x7f && r < 0xa0:
			return fmt.Errorf("control character %U at %d: %q", r, i, context(out, i))
		case isBidi(r):
			return fmt.Errorf("bidi control %U at %d: %q", r, i, context(out, i))
		}
		i += size
	}
	return nil
}

// ownSequence is the length of the SGR sequence or OSC 8 hyperlink s
// starts with, or 0.
func ownSequence(s string) int {
	switch {
	case strings.HasPrefix(s, "\x1b["):
		for i := 2; i < len(s); i++ {
			switch c := s[i]; {
			case c == 'm':
				return i + 1
			case c >= '0' && c <= '9' || c == ';' || c == ':':
			default:
				return 0
			}
		}
	case strings.HasPrefix(s, "\x1b]8;"):
		for i := 4; i < len(s); i++ {
			switch c := s[i]; {
			case c == 0x07:
				return i + 1
			case c == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			case c < 0x20 || c == 0x7f:
				return 0
			}
		}
	}
	return 0
}

func context(s string, i int) string {
	lo, hi := max(0, i-24), min(len(s), i+24)
	return s[lo:hi]
}

// isBidi reports whether r is a bidi control: U+202A-U+202E,
// U+2066-U+2069, LRM, RLM or ALM (termtext's list, kept apart so the
// checks do not trust the code they check).
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
