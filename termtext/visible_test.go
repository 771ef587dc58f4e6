package termtext

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestVisible(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "ls -la\ncd /tmp", "ls -la\ncd /tmp"},
		{"bare CR", "rm -rf ~\rls", "rm -rf ~␍ls"},
		{"CRLF", "a\r\nb", "a␍\nb"},
		{"tab", "a\tb", "a␉b"},
		{"NUL BEL BS", "\x00\x07\x08", "␀␇␈"},
		{"VT FF SO SI", "\x0b\x0c\x0e\x0f", "␋␌␎␏"},
		{"US", "\x1f", "␟"},
		{"DEL", "a\x7f", "a␡"},
		{"ESC alone", "a\x1b", "a␛"},
		{"CSI shown", "\x1b[2J\x1b[31mred", "␛[2J␛[31mred"},
		{"OSC 52 shown", "\x1b]52;c;aGk=\x07", "␛]52;c;aGk=␇"},
		{"OSC 0 with ST shown", "\x1b]0;t\x1b\\", "␛]0;t␛\\"},
		{"DCS shown", "\x1bP1$qm\x1b\\", "␛P1$qm␛\\"},
		{"C1 CSI", "\u009b2J", "<U+009B>2J"},
		{"C1 OSC and ST", "\u009d0;t\u009c", "<U+009D>0;t<U+009C>"},
		{"C1 first and last", "\u0080\u009f", "<U+0080><U+009F>"},
		{"bidi override", "ls \u202egnp.exe", "ls <U+202E>gnp.exe"},
		{"bidi isolates", "\u2066a\u2069", "<U+2066>a<U+2069>"},
		{"bidi marks", "a\u200eb\u200fc\u061cd", "a<U+200E>b<U+200F>c<U+061C>d"},
		{"Hebrew kept", "echo שלום", "echo שלום"},
		{"invalid UTF-8", "a\xff\x9bb", "a<0xFF><0x9B>b"},
		{"wide runes kept", "漢字 🚀", "漢字 🚀"},
		{"U+00A0 and up kept", "\u00a0é", "\u00a0é"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Visible(c.in); got != c.want {
				t.Errorf("%s: Visible(%q) = %q, want %q", c.name, c.in, got, c.want)
			}
		})
	}
}

func TestVisibleLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ls", "ls"},
		{"rm -rf ~\nls", "rm -rf ~␤ls"},
		{"rm -rf ~\r\nls", "rm -rf ~␍␤ls"},
		{"rm -rf ~\rls", "rm -rf ~␍ls"},
		{"\x1b]0;t\x07", "␛]0;t␇"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := VisibleLine(c.in); got != c.want {
				t.Errorf("VisibleLine(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestVisibleGlyphsAreOneCell: every glyph Visible shows is one terminal
// cell wide, so layout stays predictable.
func TestVisibleGlyphsAreOneCell(t *testing.T) {
	for r := rune(0); r < 0x20; r++ {
		if g := VisibleLine(string(r)); ansi.StringWidth(g) != 1 {
			t.Errorf("%U shows as %q, %d cells", r, g, ansi.StringWidth(g))
		}
	}
	if g := Visible("\x7f"); ansi.StringWidth(g) != 1 {
		t.Errorf("DEL shows as %q", g)
	}
}
