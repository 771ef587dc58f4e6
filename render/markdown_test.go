package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/themes"
)

// TestStableBoundary: the split point of streaming markdown, marked "|"
// in each case's text.
func TestStableBoundary(t *testing.T) {
	cases := []struct{ name, text string }{
		{"no blank line", "|one paragraph still going"},
		{"after a paragraph", "first\n\n|second"},
		{"last of several", "a\n\nb\n\n|c"},
		{"blank line at the very end", "a\n\n|b\n\n"},
		{"inside an open fence", "a\n\n|```go\nx\n\ny"},
		{"after a closed fence", "a\n\n```go\nx\n\ny\n```\n\n|z"},
		{"tilde fence", "a\n\n|~~~\n\nb"},
		{"longer closing fence needed", "a\n\n|````\n```\n\nb"},
		{"backtick fence info with backtick is not a fence", "a\n\n```x`\n\n|b"},
		{"indented line continues", "a\n\n|b\n\n    code"},
		{"definition", "a\n\n|term\n\n: def"},
		{"loose list stays whole", "x\n\n|- a\n\n- b"},
		{"indented continuation of list", "x\n\n|- a\n\n  more\n\n- b"},
		{"paragraph after list", "- a\n\n|after"},
		{"list after paragraph", "para\n\n|- a"},
		{"whitespace-only blank line", "a\n  \n|b"},
		{"empty", "|"},
		{"unfinished number after a list", "|- a\n\n1"},
		{"unfinished number after a list, more", "|1. a\n\n12"},
		{"unfinished number after a paragraph", "a\n\n|1"},
		{"tight list item", "- a\n|- b"},
		{"tight list, last complete item", "- a\n- b\n|- c"},
		{"tight ordered list", "1. a\n2. b\n|3. c"},
		{"ordered list with repeated numbers", "|1. a\n1. b"},
		{"bullet change starts a new list", "|- a\n* b"},
		{"item with a fence is not split after", "|- a\n  ```\n  x\n  ```\n- b"},
		{"loose list continues numbering", "1. a\n\n2. b\n|3. c"},
		{"not before an HTML block", "a\n\n|b\n\n<div>x</div>"},
		{"not after an HTML block", "|a\n\n<div>x</div>\n\nb"},
		{"not before a reference definition", "a\n\n|b\n\n[x]: https://example.com"},
		{"a growing line may become a definition", "a\n\n|b\n\n[x]"},
		{"a link is no definition", "a\n\n|[x](y) z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := strings.Index(c.text, "|")
			text := strings.Replace(c.text, "|", "", 1)
			if got := stableBoundary(text, 0); got != want {
				t.Fatalf("stableBoundary(%q) = %d (%q | %q), want %d", text, got, text[:got], text[got:], want)
			}
		})
	}
}

// TestStableBoundaryFrom: scanning from an earlier boundary gives the same
// answer as scanning from the start.
func TestStableBoundaryFrom(t *testing.T) {
	text := "a\n\nb\n\n```\nc\n\nd\n```\n\ne\n\nf"
	all := stableBoundary(text, 0)
	for from := 0; from < len(text); {
		got := stableBoundary(text, from)
		if got != all {
			t.Fatalf("from %d: %d, want %d", from, got, all)
		}
		next := stableBoundary(text[:len(text)-1], from)
		if next == from {
			break
		}
		from = next
	}
}

func TestListItemInfo(t *testing.T) {
	for s, want := range map[string]bool{
		"- a": true, "* a": true, "+ a": true, "1. a": true, "12) a": true, "-": true, "3.": true,
		"---": false, "-a": false, "1.a": false, "a. b": false, "1234567890. a": false, "": false, "  - nested": true,
	} {
		if got, _, _ := listItemInfo(s); got != want {
			t.Errorf("listItemInfo(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMarkdownTidy: glamour's padding is gone, no two blank lines in a
// row, no blank first or last line.
func TestMarkdownTidy(t *testing.T) {
	r := New(darkTheme())
	lines := r.markdown("# Title\n\ntext\n\n```\ncode\n```\n\n\n\nend", 40)
	if len(lines) == 0 || lines[0] == "" || lines[len(lines)-1] == "" {
		t.Fatalf("blank edge lines: %q", lines)
	}
	for i, l := range lines {
		if strings.HasSuffix(stripped([]string{l}), " ⏎\n") {
			t.Errorf("line %d has trailing padding: %q", i, l)
		}
		if i > 0 && l == "" && lines[i-1] == "" {
			t.Errorf("two blank lines at %d", i)
		}
	}
	if r.markdown("  \n\n ", 40) != nil {
		t.Fatal("blank markdown rendered lines")
	}
}

// TestOneGlamourRendererPerWidth: renderers are made once per width and
// reused for every message.
func TestOneGlamourRendererPerWidth(t *testing.T) {
	r := New(darkTheme())
	long := strings.Repeat("word ", 30) // wraps at these widths
	r.markdown("> a "+long, 40)
	tr := r.termRenderer(40)
	r.markdown("> b "+long, 40)
	r.markdown("> c "+long, 50)
	if r.termRenderer(40) != tr || len(r.md) != 2 {
		t.Fatalf("renderer not reused: %d renderers", len(r.md))
	}
	// Markdown that needs no wrapping takes the one unwrapped renderer.
	r.markdown("short", 60)
	flow := r.flow
	r.markdown("short too", 70)
	if flow == nil || r.flow != flow || len(r.md) != 2 {
		t.Fatalf("short markdown: unwrapped renderer %p then %p, %d wrapping renderers", flow, r.flow, len(r.md))
	}
	for w := 10; w < 30; w++ {
		r.termRenderer(w)
	}
	if len(r.md) > maxMarkdownRenderers {
		t.Fatalf("%d renderers kept, limit %d", len(r.md), maxMarkdownRenderers)
	}
}

// TestCodeColoursPerTheme: highlighted code takes its colours from the
// theme in use, whichever theme highlighted code first in the process
// (glamour alone would reuse the first theme's code colours).
func TestCodeColoursPerTheme(t *testing.T) {
	src := "```go\nfunc main() { fmt.Println(\"hi\") }\n```"
	dark1 := New(themes.Dark()).markdown(src, 60)
	light := New(themes.Light()).markdown(src, 60)
	dark2 := New(themes.Dark()).markdown(src, 60)
	if strings.Join(dark1, "\n") != strings.Join(dark2, "\n") {
		t.Fatal("dark code colours changed after a light render")
	}
	if strings.Join(dark1, "\n") == strings.Join(light, "\n") {
		t.Fatalf("dark and light code share colours: %q", light)
	}
}

// TestMarkdownFallback: when glamour cannot render, the text is shown
// wrapped and unstyled instead of being lost.
func TestMarkdownFallback(t *testing.T) {
	r := New(themes.Dark())
	r.md[30] = nil // no renderer for this width
	// A quote: no fast path takes it, glamour's renderer for the width must.
	lines := r.markdown("> **bold** and a fairly long sentence that wraps", 30)
	got := stripped(lines)
	if !strings.Contains(got, "**bold** and a fairly long") || len(lines) < 2 {
		t.Fatalf("fallback lost the text:\n%s", got)
	}
	checkWidth(t, lines, 30)
}

// TestScanBoundaryInFence: split points inside an open code block, marked
// "|"; the opening line is reported with them.
func TestScanBoundaryInFence(t *testing.T) {
	code := func(n int) string { return strings.Repeat("code line\n", n) }
	cases := []struct {
		name, text, open string
	}{
		{"after eight lines", "```go\n" + code(8) + "|next", "```go"},
		{"every eight lines", "```go\n" + code(16) + "|next", "```go"},
		{"too few lines", "|```go\n" + code(7) + "next", ""},
		{"not after a blank line", "|```go\n" + code(7) + "\nnext", ""},
		{"not before a blank line", "```go\n" + code(8) + "|x\n\n", "```go"},
		{"not before a possible closing fence", "|```go\n" + code(8) + "`", ""},
		{"not in an indented fence", "|  ```\n" + code(12) + "x", ""},
		{"closed fence is left", "```go\n" + code(8) + "```\n\n|after", ""},
		{"tilde fence", "~~~\n" + code(8) + "|x", "~~~"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := strings.Index(c.text, "|")
			text := strings.Replace(c.text, "|", "", 1)
			got, open := scanBoundary(text, 0, "", nil)
			if got != want || open != c.open {
				t.Fatalf("scanBoundary = %d %q (%q | %q), want %d %q", got, open, text[:got], text[got:], want, c.open)
			}
		})
	}
	// Resuming inside the fence counts from the resume point.
	text := "```go\n" + code(8) + code(8) + "x"
	b1, open := scanBoundary(text, 0, "", nil)
	b2, open2 := scanBoundary(text, b1, open, nil)
	if b2 != len(text)-1 || open2 != "```go" {
		t.Fatalf("resumed at %d: got %d %q, want %d", b1, b2, open2, len(text)-1)
	}
}
