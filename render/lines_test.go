package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/lookout-sh/lookout/themes"
)

func darkTheme() themes.Theme { return themes.Dark() }

func TestWrapPlain(t *testing.T) {
	got := wrapPlain("the quick brown fox jumps over the lazy dog\n\nend", 10)
	want := []string{"the quick", "brown fox", "jumps over", "the lazy", "dog", "", "end"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("wrapPlain = %q", got)
	}
	for _, l := range wrapPlain(strings.Repeat("漢", 15), 7) {
		if ansi.StringWidth(l) > 7 {
			t.Fatalf("wide line %q", l)
		}
	}
	if got := wrapPlain("", 5); len(got) != 1 || got[0] != "" {
		t.Fatalf("empty text: %q", got)
	}
}

// TestFitStyledKeepsColour: a styled line cut into pieces keeps its style
// in every piece and loses no text.
func TestFitStyledKeepsColour(t *testing.T) {
	line := "\x1b[31m" + strings.Repeat("abcdefghij", 5) + "\x1b[m"
	pieces := fitStyled(line, 12)
	var plain strings.Builder
	for _, p := range pieces {
		if ansi.StringWidth(p) > 12 {
			t.Fatalf("piece %q too wide", p)
		}
		if !strings.Contains(p, "\x1b[31m") {
			t.Fatalf("piece %q lost its colour", p)
		}
		plain.WriteString(ansi.Strip(p))
	}
	if plain.String() != strings.Repeat("abcdefghij", 5) {
		t.Fatalf("text lost: %q", plain.String())
	}
	wide := fitStyled(strings.Repeat("漢", 10), 5)
	if strings.Join(wide, "") != strings.Repeat("漢", 10) {
		t.Fatalf("wide graphemes lost at cut points: %q", wide)
	}
}

func TestTailLines(t *testing.T) {
	cases := []struct {
		in      string
		n       int
		tail    string
		skipped int
	}{
		{"a\nb\nc\nd\n", 2, "c\nd", 2},
		{"a\nb", 5, "a\nb", 0},
		{"", 3, "", 0},
		{"a\nb\nc", 0, "", 3},
		{"only", 1, "only", 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%q n=%d", c.in, c.n), func(t *testing.T) {
			tail, skipped := tailLines(c.in, c.n)
			if tail != c.tail || skipped != c.skipped {
				t.Errorf("tailLines(%q, %d) = %q, %d; want %q, %d", c.in, c.n, tail, skipped, c.tail, c.skipped)
			}
		})
	}
}

func TestTidyStyled(t *testing.T) {
	in := "\x1b[38;5;252mHello\x1b[m\x1b[38;5;252m \x1b[m\x1b[38;5;252m \x1b[m\x1b[38;5;252m\x1b[m"
	got := tidyStyled(in)
	if ansi.Strip(got) != "Hello" || strings.Count(got, "\x1b[38;5;252m") != 1 {
		t.Fatalf("tidyStyled = %q", got)
	}
	if tidyStyled("\x1b[38;5;252m   \x1b[m") != "" {
		t.Fatal("blank styled line not emptied")
	}
	for in, want := range map[string]string{
		"plain  ":                               "plain",
		"\x1b[1mbold\x1b[m tail":                "\x1b[1mbold\x1b[m tail\x1b[m",
		"\x1b[31m\x1b[m\x1b[32mgreen\x1b[0m   ": "\x1b[32mgreen\x1b[m",
		"a\x1b[31m \x1b[mb":                     "a\x1b[31m \x1b[mb\x1b[m",
		"\x1b]8;;x\x07link":                     "\x1b]8;;x\x07link\x1b[m",
	} {
		if got := tidyStyled(in); got != want {
			t.Errorf("tidyStyled(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCellWidthMatchesAnsi: the fast path agrees with ansi.StringWidth.
func TestCellWidthMatchesAnsi(t *testing.T) {
	for _, s := range []string{
		"", "plain", "\x1b[31mred\x1b[m", "\x1b]8;id=1;https://x\x07link\x1b]8;;\x07", "\x1b]8;;u\x1b\\a\x1b]8;;\x1b\\",
		"漢字", "a\x1b[", "\x1b]8;;", "tab\there", "e\u0301", "\x1bXnot csi", "🚀 go", "\x1b[38;5;252m • \x1b[m",
	} {
		if got, want := CellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
}

func TestMergeRuns(t *testing.T) {
	const text, bold = "\x1b[38;5;252m", "\x1b[38;5;252;1m"
	for _, c := range []struct{ name, in, want string }{
		{"two runs of one style", text + "Hello\x1b[m" + text + " world\x1b[m", text + "Hello world\x1b[m"},
		{"many runs", text + "a\x1b[m" + text + "b\x1b[m" + text + "c\x1b[m", text + "abc\x1b[m"},
		{"another style between", text + "a \x1b[m" + bold + "b\x1b[m" + text + " c\x1b[m", text + "a \x1b[m" + bold + "b\x1b[m" + text + " c\x1b[m"},
		{"the long reset", text + "a\x1b[0m" + text + "b\x1b[m", text + "ab\x1b[m"},
		{"stacked sequences", "\x1b[1m\x1b[31ma\x1b[m\x1b[1m\x1b[31mb\x1b[m", "\x1b[1m\x1b[31mab\x1b[m"},
		{"stacked then partly", "\x1b[1m\x1b[31ma\x1b[m\x1b[31mb\x1b[m", "\x1b[1m\x1b[31ma\x1b[m\x1b[31mb\x1b[m"},
		{"unstyled text between", text + "a\x1b[m " + text + "b\x1b[m", text + "a\x1b[m " + text + "b\x1b[m"},
		{"a hyperlink between", text + "a\x1b[m\x1b]8;;u\x07" + text + "b\x1b[m\x1b]8;;\x07", text + "a\x1b[m\x1b]8;;u\x07" + text + "b\x1b[m\x1b]8;;\x07"},
		{"one run", text + "a\x1b[m", text + "a\x1b[m"},
		{"no style", "plain", "plain"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := mergeRuns(c.in)
			if got != c.want {
				t.Fatalf("mergeRuns(%q) = %q, want %q", c.in, got, c.want)
			}
			if ansi.Strip(got) != ansi.Strip(c.in) {
				t.Fatalf("the text changed: %q", ansi.Strip(got))
			}
		})
	}
}
