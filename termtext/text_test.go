package termtext

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "plain text\nline two", "plain text\nline two"},
		{"empty", "", ""},
		{"SGR and OSC 8", "\x1b[31mred\x1b[0m and \x1b]8;;http://x\x07link\x1b]8;;\x07", "red and link"},
		{"tab stops", "a\tb", "a   b"},
		{"tab at a stop", "abcd\te", "abcd    e"},
		{"tab after a line break", "ab\n\tc", "ab\n    c"},
		{"CRLF", "crlf\r\nnext", "crlf\nnext"},
		{"bare CR keeps the last write", "10%\r50%\r100%\ndone", "100%\ndone"},
		{"bare CR on a later line", "one\n10%\r100%", "one\n100%"},
		{"bare CR at the end", "gone\r", ""},
		{"C0 and DEL dropped", "bell\x07 nul\x00 del\x7f bs\x08 vt\x0b ff\x0c so\x0e", "bell nul del bs vt ff so"},
		{"C1 dropped", "c1\u0085here\u0080\u009c", "c1here"},
		{"invalid UTF-8", "bad \xff byte", "bad \ufffd byte"},
		{"truncated rune", "end \xe6\xbc", "end \ufffd\ufffd"},
		{"wide runes", "漢字 🚀", "漢字 🚀"},
		{"OSC 8 with ST after wide", "漢字\x1b]8;;u\x1b\\ after wide", "漢字 after wide"},
		{"rune then BEL", "é\x07", "é"},
		{"U+FFFD kept", "\ufffd is fine", "\ufffd is fine"},
		{"CSI erase", "a\x1b[2Jb", "ab"},
		{"CSI private", "a\x1b[?1049hb", "ab"},
		{"CSI intermediate", "a\x1b[1 qb", "ab"},
		{"CSI cut by a control", "a\x1b[12\nb", "a\nb"},
		{"CSI cut by text", "a\x1b[12é", "aé"},
		{"OSC 0 BEL", "a\x1b]0;title\x07b", "ab"},
		{"OSC 2 ST", "a\x1b]2;title\x1b\\b", "ab"},
		{"OSC 52 BEL", "a\x1b]52;c;aGk=\x07b", "ab"},
		{"OSC 52 ST", "a\x1b]52;c;aGk=\x1b\\b", "ab"},
		{"OSC ended by C1 ST", "a\x1b]0;t\u009cb", "ab"},
		{"OSC cancelled by CAN", "a\x1b]0;t\x18b", "ab"},
		{"OSC ended by another escape", "a\x1b]0;t\x1b[31mb", "ab"},
		{"OSC unterminated", "a\x1b]0;title and the rest", "a"},
		{"DCS", "a\x1bP1$qm\x1b\\b", "ab"},
		{"APC", "a\x1b_Gf=1;AAAA\x1b\\b", "ab"},
		{"PM", "a\x1b^pm\x1b\\b", "ab"},
		{"SOS", "a\x1bXsos\x1b\\b", "ab"},
		{"charset", "a\x1b(0b", "ab"},
		{"DECALN", "a\x1b#8b", "ab"},
		{"RIS", "a\x1bcb", "ab"},
		{"ESC alone at the end", "a\x1b", "a"},
		{"ESC then SP is an nF escape", "a\x1b bc", "ac"},
		{"ESC before a line break", "a\x1b\nb", "a\nb"},
		{"ESC before a non-ASCII rune", "a\x1bé", "aé"},
		{"ESC ESC", "a\x1b\x1b[31mb", "ab"},
		{"C1 CSI", "a\u009b2Jb", "ab"},
		{"C1 CSI colour", "a\u009b31mb\u009b0m", "ab"},
		{"C1 OSC BEL", "a\u009d52;c;aGk=\x07b", "ab"},
		{"C1 OSC C1 ST", "a\u009d0;t\u009cb", "ab"},
		{"C1 DCS", "a\u0090P1$q\u009cb", "ab"},
		{"C1 APC PM SOS", "a\u009fx\u009cb\u009ey\u009cc\u0098z\u009cd", "abcd"},
		{"8-bit CSI byte", "a\x9b2Jb", "a\ufffd2Jb"},
		{"truncated rune before an escape", "a\xc2\x1b]0;t\x07b", "a\ufffdb"},
		{"bidi override hides an extension", "invoice\u202egnp.exe", "invoicegnp.exe"},
		{"bidi embeddings", "a\u202ab\u202bc\u202cd\u202de", "abcde"},
		{"bidi isolates", "x\u2066y\u2067z\u2068w\u2069", "xyzw"},
		{"bidi marks", "1\u200e2\u200f3\u061c4", "1234"},
		{"bidi controls across lines", "\u202eone\ntwo\u2069", "one\ntwo"},
		{"Hebrew kept", "שלום עולם", "שלום עולם"},
		{"Arabic kept", "مرحبا بالعالم", "مرحبا بالعالم"},
		{"Hebrew with its override dropped", "\u202eשלום\u202c abc", "שלום abc"},
		{"mixed scripts kept", "file קובץ.txt ملف", "file קובץ.txt ملف"},
		{"other format characters kept", "zero\u200bwidth\u200djoin", "zero\u200bwidth\u200djoin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Errorf("%s: Text(%q) = %q, want %q", c.name, c.in, got, c.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "a title", "a title"},
		{"LF", "a\nb", "a b"},
		{"CRLF", "a\r\nb", "a b"},
		{"bare CR keeps both sides", "rm -rf ~\rls", "rm -rf ~ ls"},
		{"tab", "a\tb", "a   b"},
		{"OSC 52 in a title", "title\x07\x1b]52;c;aGk=\x07", "title"},
		{"C1 OSC title", "t\u009d0;x\u009c!", "t!"},
		{"controls", "a\x00\x01\x7f\u0085b", "ab"},
		{"bidi override in a title", "report\u202efdp.sh", "reportfdp.sh"},
		{"bidi isolate and marks", "\u2067t\u200fi\u200etle\u2069", "title"},
		{"bidi with a line break", "a\u202e\nb", "a b"},
		{"Hebrew title kept", "כותרת\nשנייה", "כותרת שנייה"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Errorf("%s: Line(%q) = %q, want %q", c.name, c.in, got, c.want)
			}
		})
	}
}

// TestCleanTextIsNotCopied: text that needs no change comes back as it
// is, without allocating (render relies on this for speed).
func TestCleanTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("clean text, 漢字 and emoji 🚀\n", 100)
	if n := testing.AllocsPerRun(100, func() { _ = Text(s); _ = Visible(s) }); n != 0 {
		t.Fatalf("clean text allocated %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Line("a title"); _ = VisibleLine("ls -la") }); n != 0 {
		t.Fatalf("a clean line allocated %v times", n)
	}
	b := []byte(`{"a":"漢字","b":[1,2]}`)
	if n := testing.AllocsPerRun(100, func() { _ = JSON(b) }); n != 0 {
		t.Fatalf("clean JSON allocated %v times", n)
	}
}
