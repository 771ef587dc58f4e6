package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"pgregory.net/rapid"

	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// requireSameAsWrapped fails when markdown renders src at width other
// than the wrapping glamour renderer alone does.
func requireSameAsWrapped(t tb, r *Renderer, src string, width int) {
	t.Helper()
	got := strings.Join(r.markdown(src, width), "\n")
	want := strings.Join(r.markdownWith(false, termtext.Text(src), width), "\n")
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("width %d: unwrapped render differs from the wrapping one at line %d (%d vs %d lines):\n%q\n%q\nsrc: %.300q", width, i, len(g), len(w), g[i], w[i], src)
		}
	}
	t.Fatalf("width %d: unwrapped render has %d lines, the wrapping one %d\nsrc: %.300q", width, len(g), len(w), src)
}

// TestFitMatchesWrapped: markdown rendered through the unwrapped
// renderer is byte for byte what the wrapping renderer makes of it, at
// every width, for lines just inside and just past the wrap width too.
func TestFitMatchesWrapped(t *testing.T) {
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("abcd ", n/5+1))[:n] }
	cases := map[string]string{
		"sample":          sampleMarkdown,
		"long paragraph":  strings.Repeat("a sentence that goes on ", 20),
		"table":           "| a | b |\n|---|---|\n| 1 | 2 |",
		"tabs in code":    "```go\nfunc f() {\n\tif x {\n\t\treturn\n\t}\n}\n```",
		"long code line":  "```\n" + strings.Repeat("x", 120) + "\n```",
		"quote":           "> quoted text\n> more\n>\n> > nested " + words(50),
		"nested lists":    "- outer\n  - inner " + words(40) + "\n    - deeper " + words(40) + "\n- outer two",
		"link at end":     "see [the log](https://example.com/log)\n\nand <https://example.com/a/very/long/path/that/goes/on>",
		"headings":        "# Title " + words(30) + "\n\n## Sub\n\n### " + words(60),
		"wide runes":      "日本語のテキスト " + strings.Repeat("漢字", 20),
		"hard break":      "line one  \nline two\\\nline three",
		"rule":            "above\n\n---\n\nbelow",
		"html":            "<div>raw " + words(30) + "</div>\n\ntext &amp; more",
		"ordered":         "1. first " + words(45) + "\n2. second\n10. tenth",
		"task list":       "- [ ] open " + words(30) + "\n- [x] done",
		"strikethrough":   "~~gone~~ and " + words(40),
		"quoted list":     "> - a " + words(35) + "\n>   - b\n>\n> text",
		"image":           "![alt text](https://example.com/i.png) " + words(20),
		"emoji":           ":smile: and :+1: " + words(20),
		"www autolink":    "see www.example.com/path and " + words(30),
		"closed heading":  "## Title ##\n\nSetext\n======\n\nOther\n------",
		"definitions":     "Term\n: definition " + words(50) + "\n: another",
		"list hard break": "- one  \n  two\n- three\\\n  four",
		"code in list":    "- item\n\n  ```go\n  x := 1\n  ```\n- next",
		"loose list":      "- a " + words(30) + "\n\n- b\n\n  para " + words(40),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			for _, th := range allThemes() {
				r := New(th)
				for width := 12; width <= 130; width += 9 {
					requireSameAsWrapped(t, r, src, width)
				}
			}
		})
	}
	// Lines of every length around the wrap width, in one theme.
	r := New(themes.Dark())
	for n := 20; n <= 100; n += 13 {
		for _, src := range []string{words(n), "- " + words(n), "```\n" + words(n) + "\n```"} {
			for width := 12; width <= 130; width += 9 {
				requireSameAsWrapped(t, r, src, width)
			}
		}
	}
}

// TestFitMatchesWrappedProperty: the same for messages made of random
// blocks of random lengths.
func TestFitMatchesWrappedProperty(t *testing.T) {
	r := New(themes.Dark())
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		for i, n := 0, rapid.IntRange(1, 4).Draw(t, "blocks"); i < n; i++ {
			text := strings.Repeat("word ", rapid.IntRange(1, 25).Draw(t, "words"))
			text = text[:rapid.IntRange(1, len(text)).Draw(t, "cut")]
			form := rapid.SampledFrom([]string{"%s", "# %s", "- %s", "1. %s", "> %s", "```\n%s\n```", "**%s**", "`%s`", "- a\n  - %s",
				"<div>%s</div>", "Term\n: %s", "%s\n===", "- a\n\n  %s", "1. %s\n2. x", "| a |\n|---|\n| %s |", "    %s",
				"[x]: https://example.com/%s", "> %s\n>\n> more", "%s\n- item", "---", "* %s\n\n* loose", "~~~\n%s"}).Draw(t, "form")
			parts = append(parts, strings.Replace(form, "%s", text, 1))
		}
		requireSameAsWrapped(t, r, strings.Join(parts, "\n\n"), rapid.IntRange(8, 130).Draw(t, "width"))
	})
}

// TestFitMatchesWrappedLongmd: every section of the benchmark answer.
func TestFitMatchesWrappedLongmd(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	text := benchtext.Longmd(t)
	r := New(themes.Dark())
	for i, sec := range strings.Split(text, "\n## ") {
		for _, width := range []int{40, 116} {
			t.Run(strconv.Itoa(i)+"_"+strconv.Itoa(width), func(t *testing.T) {
				requireSameAsWrapped(t, r, sec, width)
			})
		}
	}
}

// TestFitTakesTheUnwrappedRenderer: markdown whose lines are short, or
// that is one paragraph or one tight list, is not handed to a wrapping
// renderer at all.
func TestFitTakesTheUnwrappedRenderer(t *testing.T) {
	r := New(themes.Dark())
	r.markdown(sampleMarkdown, 96)
	if r.flow == nil || len(r.md) != 0 {
		t.Fatalf("sample rendered by %d wrapping renderers (unwrapped: %v)", len(r.md), r.flow != nil)
	}
	r.markdown(strings.Repeat("a long paragraph ", 20), 96)
	if len(r.md) != 0 {
		t.Fatalf("a paragraph that wraps used %d wrapping renderers, want none", len(r.md))
	}
	r.markdown("- "+strings.Repeat("a long list item ", 20)+"\n- another", 96)
	if len(r.md) != 0 {
		t.Fatalf("a tight list that wraps used %d wrapping renderers, want none", len(r.md))
	}
	r.markdown("> "+strings.Repeat("a long quote ", 20), 96)
	if len(r.md) != 1 {
		t.Fatalf("a quote that wraps used %d wrapping renderers, want 1", len(r.md))
	}
}

// TestMayFit: the guess that decides whether the unwrapped renderer is
// tried.
func TestMayFit(t *testing.T) {
	cases := []struct {
		name, src string
		limit     int
		want      bool
	}{
		{"short paragraph", "one two three", 20, true},
		{"soft breaks join", "one two\nthree four\nfive six", 20, false},
		{"list items stay apart", "- one two\n- three four\n- five six", 12, true},
		{"headings stay apart", "# one two\nthree four", 12, true},
		{"code lines stay apart", "```\none two three\nfour five six\n```", 14, true},
		{"long code line", "```\none two three four five\n```", 14, false},
		{"tab counts four", "```\n\t\t\tx\n```", 12, false},
		{"table", "| a |\n|---|\n| 1 |", 80, false},
		{"table without edge pipes", "a | b\n--- | ---\n1 | 2", 80, false},
		{"rule is no table", "above\n\n---\n\nbelow", 80, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mayFit(c.src, c.limit); got != c.want {
				t.Fatalf("mayFit(%q, %d) = %v, want %v", c.src, c.limit, got, c.want)
			}
		})
	}
}

// TestParagraphMatchesWrapped: one paragraph that needs wrapping, made of
// random words, inline styles, links, long words, hyphens and wide runes,
// laid out by wrapping the unwrapped line as glamour does.
func TestParagraphMatchesWrapped(t *testing.T) {
	r := New(themes.Dark())
	words := []string{"word", "a", "longer-word", "hyphen-ated-words", "`code span`", "**strong**", "*emph*", "_under_",
		"[link](https://example.com/x)", "<https://example.com/auto>", "日本語", "punct,", "end.", "semi;", "x+y|z",
		strings.Repeat("verylongword", 12), "\nand", "&amp;", "~~strike~~", "emoji:", "👍"}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("Start")
		for i, n := 0, rapid.IntRange(1, 60).Draw(t, "n"); i < n; i++ {
			w := rapid.SampledFrom(words).Draw(t, "word")
			if w != "\nand" {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		src := b.String()
		if !isParagraph(src) {
			t.Fatalf("not taken for a paragraph: %q", src)
		}
		requireSameAsWrapped(t, r, src, rapid.IntRange(8, 130).Draw(t, "width"))
	})
}

// TestTightListMatchesWrapped: a tight list of one-line items made of
// random words, inline styles, links, long words, hyphens and wide runes,
// laid out by wrapping the unwrapped lines as glamour does.
func TestTightListMatchesWrapped(t *testing.T) {
	r := New(themes.Dark())
	words := []string{"word", "a", "longer-word", "`code span`", "**strong**", "*emph*", "[link](https://example.com/x)",
		"日本語", "punct,", "end.", "semi;", "x+y|z", strings.Repeat("verylongword", 12), "&amp;", "👍", "1.5", "-", "+"}
	rapid.Check(t, func(t *rapid.T) {
		marker := rapid.SampledFrom([]string{"-", "*", "+", "1.", "1)"}).Draw(t, "marker")
		var b strings.Builder
		for i, n := 0, rapid.IntRange(1, 5).Draw(t, "items"); i < n; i++ {
			if i > 0 {
				b.WriteByte('\n')
			}
			if marker[0] >= '0' && marker[0] <= '9' {
				b.WriteString(strconv.Itoa(i+1) + marker[1:])
			} else {
				b.WriteString(marker)
			}
			b.WriteString(" Item")
			for j, m := 0, rapid.IntRange(0, 25).Draw(t, "words"); j < m; j++ {
				b.WriteString(" " + rapid.SampledFrom(words).Draw(t, "word"))
			}
		}
		src := b.String()
		if !isTightList(src) {
			t.Fatalf("not taken for a tight list: %q", src)
		}
		requireSameAsWrapped(t, r, src, rapid.IntRange(8, 130).Draw(t, "width"))
	})
}

// TestIsTightList: what is taken for one tight list of one-line items.
func TestIsTightList(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"- a\n- b", true},
		{"1. a\n2. b\n3. c", true},
		{"* `code` first", true},
		{"- a\n* b", false},
		{"1. a\n2) b", false},
		{"- a\n  - nested", false},
		{"- a\ncontinued", false},
		{"- a\n\n- loose", false},
		{"- # heading", false},
		{"- > quote", false},
		{"- ```", false},
		{"- - nested", false},
		{"-", false},
		{"text", false},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			if got := isTightList(c.src); got != c.want {
				t.Fatalf("isTightList(%q) = %v, want %v", c.src, got, c.want)
			}
		})
	}
}

// TestIsParagraph: what is taken for one plain paragraph.
func TestIsParagraph(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"Plain text\nover two lines.", true},
		{"`code` first", true},
		{"*emph* first", true},
		{"**strong** first", true},
		{"__strong__ first", true},
		{"** not strong", false},
		{"* * *", false},
		{"****", false},
		{"[a link](x) first", true},
		{"2024 was a year", true},
		{"# heading", false},
		{"- item", false},
		{"1. item", false},
		{"> quote", false},
		{"    indented code", false},
		{"[ref]: https://example.com", false},
		{"Title\n=====", false},
		{"Title\n---", false},
		{"a | b\n--|--", false},
		{"text\n\nmore", false},
		{"text\n- item", false},
		{"text\n```\ncode", false},
		{"***", false},
		{"<div>", false},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			if got := isParagraph(c.src); got != c.want {
				t.Fatalf("isParagraph(%q) = %v, want %v", c.src, got, c.want)
			}
		})
	}
}
