package render

import (
	"slices"
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
		"*ends.*", "`code`", "`a * b`", "`x<y>z`", "`snake_case()`", "snake_case", "a_b_c", "**my_var**", "path/to/file_name.go", "\nnext", "3.14"}
	trickyWords = []string{"*", "**", "`", "a*b*c", "**open", "close**", "*two **nested** here*", "` spaced `", "_under_",
		"`x<y>&z`", "`a&amp;b`", "`a&#65;b`", "`a\\b`", "_lead", "trail_", "__dunder__", "a__b", "x_ y", "~~gone~~", "[link](x)", "<tag>", "&amp;", "\\*", "www.example.com", "http://x.y", "a@b.c",
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
			want := r.unwrappedLines(src)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%q:\nplain   %q\nglamour %q", src, got, want)
			}
			requireSameAsWrapped(t, r, src, rapid.IntRange(8, 130).Draw(t, "width"))
		})
	}
}

// TestPlainBlocksAreGlamours: documents of plain paragraphs, lists and
// headings, blank lines between them, are laid out as glamour lays them
// out, at every width.
func TestPlainBlocksAreGlamours(t *testing.T) {
	for _, th := range []themes.Theme{themes.Dark(), themes.Light()} {
		r := New(th)
		for level := 1; level <= 6; level++ {
			if r.inlineStyles().heading[level][0] == "" {
				t.Fatalf("%s: the probe of heading level %d failed", th.Name, level)
			}
		}
		rapid.Check(t, func(t *rapid.T) {
			words := func(label string) string {
				var b strings.Builder
				b.WriteString("Word")
				for i, n := 0, rapid.IntRange(0, 10).Draw(t, label); i < n; i++ {
					b.WriteString(" " + rapid.SampledFrom(plainWords[:len(plainWords)-2]).Draw(t, "word"))
				}
				return b.String()
			}
			var blocks []string
			for i, n := 0, rapid.IntRange(1, 6).Draw(t, "blocks"); i < n; i++ {
				switch rapid.IntRange(0, 2).Draw(t, "kind") {
				case 0:
					blocks = append(blocks, words("paragraph")+"\n"+words("line"))
				case 1:
					if len(blocks) > 0 && strings.HasPrefix(blocks[len(blocks)-1], "- ") {
						continue // two lists in a row are one loose list
					}
					blocks = append(blocks, "- "+words("item")+"\n- "+words("item"))
				default:
					blocks = append(blocks, strings.Repeat("#", rapid.IntRange(1, 6).Draw(t, "level"))+" "+
						rapid.SampledFrom([]string{"Title", "Section 12: notes", "Why it fails (and how)", "日本語 title"}).Draw(t, "heading"))
				}
			}
			src := strings.Join(blocks, "\n\n")
			if _, ok := r.plainBlocks(src); !ok {
				t.Fatalf("plain blocks not taken: %q", src)
			}
			requireSameAsWrapped(t, r, src, rapid.IntRange(8, 130).Draw(t, "width"))
		})
	}
}

// FuzzPlainProse: whatever the text, when the plain form takes it, the
// message renders as glamour's wrapping renderer renders it.
func FuzzPlainProse(f *testing.F) {
	f.Add("Start **strong** and *emph* with `code`\nnext line.", uint8(40))
	f.Add("- one **two**\n- `three` four\n\n## Title\n\nText.", uint8(100))
	f.Add("9. a\n10. b *c*\n\n# H", uint8(20))
	f.Add("a `x<y>&z` (aside) \"q\" 50% x=1 #12 日本語", uint8(8))
	r := New(themes.Dark())
	f.Fuzz(func(t *testing.T, text string, w uint8) {
		if _, ok := r.plainBlocks(text); !ok {
			return
		}
		requireSameAsWrapped(t, r, text, 8+int(w)%123)
	})
}

func TestPlainSpans(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []span // nil: not plain
	}{
		{"words", "Hello, world.", []span{{inlineText, "Hello, world."}}},
		{"every kind", "a **b** *c* `d`", []span{{inlineText, "a "}, {inlineStrong, "b"}, {inlineText, " "}, {inlineEmph, "c"}, {inlineText, " "}, {inlineCode, "d"}}},
		{"soft break", "one\ntwo", []span{{inlineText, "one two"}}},
		{"span at a line's start", "one\n**two**", []span{{inlineText, "one "}, {inlineStrong, "two"}}},
		{"closing punctuation", "**end.** *x*) `y`,", []span{{inlineStrong, "end."}, {inlineText, " "}, {inlineEmph, "x"}, {inlineText, ") "}, {inlineCode, "y"}, {inlineText, ","}}},
		{"opening after a bracket", "(*x*)", nil},
		{"snake_case", "my_var_name", []span{{inlineText, "my_var_name"}}},
		{"code holds markup", "`a * b <c>`", []span{{inlineCode, "a * b <c>"}}},
		{"link", "see [x](y)", nil},
		{"address", "see www.example.com", nil},
		{"scheme", "a http://x", nil},
		{"email", "a@b.c", nil},
		{"entity", "a &amp; b", nil},
		{"entity in code", "`a&amp;b`", nil},
		{"backslash in code", "`a\\b`", nil},
		{"escape", "a \\* b", nil},
		{"underscore emphasis", "_a_", nil},
		{"underscore at a word's end", "a_ b", nil},
		{"strikethrough", "~~a~~", nil},
		{"intraword strong", "a**b**", nil},
		{"strong then letters", "**b**c", nil},
		{"spaced code", "` a `", nil},
		{"unclosed", "**a", nil},
		{"lone star", "a * b", nil},
		{"nested", "*a **b** c*", nil},
		{"leading blank", " a", nil},
		{"trailing blank", "a ", nil},
		{"hard break", "a  \nb", nil},
		{"definition", "a\n: b", nil},
		{"tab", "a\tb", nil},
		{"emoji", "a 👍", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := plainSpans(c.src)
			if c.want == nil {
				if ok {
					t.Fatalf("plainSpans(%q) = %v, want not plain", c.src, got)
				}
				return
			}
			if !ok || !slices.Equal(got, c.want) {
				t.Fatalf("plainSpans(%q) = %v, %v; want %v", c.src, got, ok, c.want)
			}
		})
	}
}
