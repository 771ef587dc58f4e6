package render

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/lookout-sh/lookout/themes"
)

// TestBatchedProseMatchesWrapped: messages whose prose parts between code
// blocks are rendered in one glamour call come out as glamour's wrapping
// renderer makes the whole message, whatever the parts hold: blocks that
// may not be batched (definitions, HTML, link references, fences that
// stay in the prose), lists and quotes cut by code, and the separator
// itself written by the message. (Left out: tables, which are never
// batched, and a fence left open in a list item, which the prose's cut
// points do not see closing with the item, so what follows it already
// renders otherwise than in the whole message.)
func TestBatchedProseMatchesWrapped(t *testing.T) {
	forms := []string{"%s", "# %s", "- %s", "1. %s", "3. %s\n4. x", "> %s", "**%s**", "`%s`", "- a\n  - %s",
		"<div>%s</div>", "Term\n: %s", ": %s", "%s\n===", "---\n%s", "- a\n\n  %s", "    %s",
		"[x]: https://example.com/%s", "[^1]: %s", "see [x] and %s", "> %s\n>\n> more", "%s\n- item", "* %s\n\n* loose",
		"  ```\n%s", "~~~\n%s\n~~~", "1. %s\n\n   ```go\n   x := 1\n   ```", partSeparator, "%s " + partSeparator,
		"_%s_ and *more*", "%s  \nhard break", ":smile: %s", "- [ ] %s"}
	code := []string{"```go\nfunc f() {}\n```", "```\nplain\n```", "~~~sh\nls\n~~~", "```python\nx = 1\n"}
	r := New(themes.Dark())
	light := New(themes.Light())
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		for i, n := 0, rapid.IntRange(1, 7).Draw(t, "blocks"); i < n; i++ {
			if rapid.IntRange(0, 2).Draw(t, "kind") == 0 {
				parts = append(parts, rapid.SampledFrom(code).Draw(t, "code"))
				continue
			}
			text := strings.Repeat("word ", rapid.IntRange(1, 25).Draw(t, "words"))
			text = text[:rapid.IntRange(1, len(text)).Draw(t, "cut")]
			parts = append(parts, strings.Replace(rapid.SampledFrom(forms).Draw(t, "form"), "%s", text, 1))
		}
		src := strings.Join(parts, "\n\n")
		width := rapid.IntRange(8, 160).Draw(t, "width")
		requireSameAsWrapped(t, r, src, width)
		requireSameAsWrapped(t, light, src, width)
	})
}

// TestBatchProseTakesFittingParts: the prose parts of a code-heavy
// message are laid out here, the plain pieces without glamour and the
// others in one glamour call together; a part that holds a link reference
// definition, starts with a definition or ends in an open fence is not, a
// lone piece for glamour is left to the caller, and when glamour shows the
// separator as a line of a piece (here, indented code) the batch is given
// up.
func TestBatchProseTakesFittingParts(t *testing.T) {
	r := New(themes.Dark())
	cases := []struct {
		name string
		src  string
		want []bool
	}{
		{"sample twice", sampleMarkdown + "\n" + sampleMarkdown, []bool{true, false, true, false, true}},
		{"reference", "a [x]\n\n```\nc\n```\n\n[x]: https://example.com\n\n```\nd\n```\n\nb", []bool{false, false, false, false, true}},
		{"open fence", "a\n\n```\nc\n```\n\nd\n\n```\ne\n```\n\nb\n```\nunclosed", []bool{true, false, true, false, false}},
		{"definition", "a\n\n```\nc\n```\n: d\n\n```\ne\n```\n\nf", []bool{true, false, false, false, true}},
		{"separator written", "a [x]\n\n```\nc\n```\n\n" + partSeparator + "\n\n```\ne\n```\n\nf [y]", []bool{true, false, true, false, true}},
		{"separator shown by glamour", "a [x]\n\n```\nc\n```\n\n    " + partSeparator + "\n\n```\ne\n```\n\nf [y]", []bool{false, false, false, false, false}},
		{"one prose part", "a\n\n```\nc\n```", []bool{true, false}},
		{"plain and not", "a\n\n> quote\n\n```\nc\n```\n\n[b](x)\n\n- d", []bool{true, false, true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parts := splitFences(c.src)
			if len(parts) != len(c.want) {
				t.Fatalf("%d parts, want %d: %+v", len(parts), len(c.want), parts)
			}
			out := make([]string, len(parts))
			done := make([]bool, len(parts))
			r.batchProse(parts, 80, out, done)
			for i := range parts {
				if done[i] != c.want[i] {
					t.Fatalf("part %d (%q) batched: %v, want %v", i, parts[i].text, done[i], c.want[i])
				}
				words := strings.Fields(parts[i].text)
				if last := strings.Trim(words[len(words)-1], "`*_#.[]()"); done[i] && !strings.Contains(stripped(strings.Split(out[i], "\n")), last) {
					t.Fatalf("part %d rendered as %q", i, out[i])
				}
			}
			requireSameAsWrapped(t, r, c.src, 80)
		})
	}
}
