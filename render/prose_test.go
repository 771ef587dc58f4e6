package render

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/lookout-sh/lookout/themes"
)

// plainWords are words a plain paragraph is made of; trickyWords are
// near misses the plain form must refuse or get right.
var (
	plainWords = []string{"word", "a", "longer-word", "it's", "\"quoted\"", "(aside)", "end.", "comma,", "semi;", "colon:",
		"why?", "yes!", "50%", "x=1", "a/b", "#12", "$5", "{x}", "日本語", "Ünïcödé", "**strong**", "**two words**", "*emph*",
		"*ends.*", "`code`", "`a * b`", "`x<y>&z`", "`snake_case()`", "\nnext", "3.14"}
	trickyWords = []string{"*", "**", "`", "a*b*c", "**open", "close**", "*two **nested** here*", "` spaced `", "_under_",
		"snake_case", "~~gone~~", "[link](x)", "<tag>", "&amp;", "\\*", "www.example.com", "http://x.y", "a@b.c",
		"x|y", "\n: def", "\n- item", "\n# head", "\n1. one", "\n  indented", "trailing  \nbreak", "👍", "tab\there",
		"**bold**word", "word**bold**", "`code`s", "(`code`)", "**b**:", "*e*)", "\n**line**", "\n`line`", "\n", "\n\n"}
)

// TestPlainParagraphIsGlamours: a paragraph the plain form takes is laid
// out exactly as glamour's unwrapped renderer lays it out (after
// mergeRuns), in both themes; a paragraph of plain words is always taken.
func TestPlainParagraphIsGlamours(t *testing.T) {
	for _, th := range []themes.Theme{themes.Dark(), themes.Light()} {
		r := New(th)
		if !r.inlineStyles().ok {
			t.Fatalf("%s: the inline style probes failed", th.Name)
		}
		rapid.Check(t, func(t *rapid.T) {
			vocabulary := plainWords
			tricky := rapid.Bool().Draw(t, "tricky")
			if tricky {
				vocabulary = append(append([]string(nil), plainWords...), trickyWords...)
			}
			var b strings.Builder
			b.WriteString("Start")
			for i, n := 0, rapid.IntRange(1, 40).Draw(t, "n"); i < n; i++ {
				w := rapid.SampledFrom(vocabulary).Draw(t, "word")
				if w[0] != '\n' {
					b.WriteByte(' ')
				}
				b.WriteString(w)
			}
			src := b.String()
			got, ok := r.plainParagraph(src)
			if !ok {
				if !tricky {
					t.Fatalf("plain words not taken: %q", src)
				}
				return
			}
			want, wok := r.probeLine(src)
			if !wok || got != want {
				t.Fatalf("%q:\nplain   %q\nglamour %q", src, got, want)
			}
			requireSameAsWrapped(t, r, src, rapid.IntRange(8, 130).Draw(t, "width"))
		})
	}
}

// TestPlainListIsGlamours: the same for tight lists of plain items, with
// bullets or numbers (every item numbered as written: glamour counts on
// from the first).
func TestPlainListIsGlamours(t *testing.T) {
	for _, th := range []themes.Theme{themes.Dark(), themes.Light()} {
		r := New(th)
		if st := r.inlineStyles(); st.bullet == "" || st.enum == "" {
			t.Fatalf("%s: the list probes failed", th.Name)
		}
		rapid.Check(t, func(t *rapid.T) {
			tricky := rapid.Bool().Draw(t, "tricky")
			vocabulary := plainWords[:len(plainWords)-2] // no soft breaks in an item
			if tricky {
				vocabulary = append(append([]string(nil), vocabulary...), trickyWords...)
			}
			mark := rapid.SampledFrom([]string{"-", "*", "+", "1.", "7.", "9)", "010."}).Draw(t, "mark")
			var items []string
			for i, n := 0, rapid.IntRange(1, 12).Draw(t, "items"); i < n; i++ {
				var b strings.Builder
				b.WriteString(mark + " Item")
				for j, m := 0, rapid.IntRange(0, 12).Draw(t, "words"); j < m; j++ {
					b.WriteString(" " + rapid.SampledFrom(vocabulary).Draw(t, "word"))
				}
				items = append(items, b.String())
			}
			src := strings.Join(items, "\n")
			got, ok := r.plainList(src)
			if !ok {
				if !tricky {
					t.Fatalf("plain items not taken: %q", src)
				}
				return
			}
			want := r.probeLines(src)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%q:\nplain   %q\nglamour %q", src, got, want)
			}
			requireSameAsWrapped(t, r, src, rapid.IntRange(8, 130).Draw(t, "width"))
		})
	}
}
