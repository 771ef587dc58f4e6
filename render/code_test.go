package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"
	"pgregory.net/rapid"

	"github.com/lookout-sh/lookout/themes"
)

// codeSamples are code blocks of the shapes codeLines meets: tokens that
// run over lines, bold and italic styles, guessed and unknown languages,
// blank and space-only lines, wide runes.
var codeSamples = map[string]string{
	"go":              "```go\nfunc f() {\n\tif x {\n\t\treturn\n\t}\n}\n```",
	"go raw string":   "```go\nx := `raw\nstring` // c\n/* multi\nline */\n\nfunc f() {}\n```",
	"python doc":      "```python\ndef f():\n    \"\"\"doc\n    more\"\"\"\n    return 1  \n```",
	"no language":     "```\nplain text\n  indented\n```",
	"guessed":         "```\n#!/bin/bash\necho hi\n```",
	"unknown":         "```nosuchlanguage\nwhatever {\n}\n```",
	"tilde":           "~~~sh\nls -la | grep x\n~~~",
	"long fence":      "````md\n```\ninner\n```\n````",
	"info attributes": "```go {.numbered}\nvar x = 1\n```",
	"empty":           "```go\n```",
	"blank lines":     "```go\n\n\nx := 1\n\n\n```",
	"spaces only":     "```\n   \n\t\nx\n```",
	"wide runes":      "```\n日本語 = \"漢字\"\n```",
	"json":            "```json\n{\"a\": [1, 2, {\"b\": null}],\n \"c\": \"multi\\nline\"}\n```",
	"diff":            "```diff\n- old\n+ new\n@@ -1 +1 @@\n```",
	"rust":            "```rust\n/// doc\nfn main() { println!(\"{}\", 1); }\n```",
	"yaml":            "```yaml\nkey: |\n  block\n  text\nlist:\n  - a\n```",
	"html":            "```html\n<!-- a\ncomment -->\n<div class=\"x\">t</div>\n```",
	"long line":       "```go\n" + strings.Repeat("value + ", 30) + "1\n```",
	"closing longer":  "```go\nx := 1\n`````",
	"fence in body":   "```\na\n  ```\nb\n```",
	"indented close":  "```\na\n  ```",
	"unclosed":        "```go\nx := 1\n",
	"unclosed blanks": "```go\nx := 1\n\n\n",
	"unclosed bare":   "```go\nx := `a\nb",
	"only the fence":  "```go",
	"fence and blank": "```go\n\n",
	"markdown styles": "```md\n*emph\nmore* and **strong\ntext** and __x\ny__\n```",
	"error tokens":    "```json\n{\"a\": @@@\n@@@ }\n```",
}

// TestCodeLinesMatchGlamour: code blocks rendered from chroma's tokens
// are glamour's lines byte for byte, in both themes, at every width, with
// prose around them.
func TestCodeLinesMatchGlamour(t *testing.T) {
	for name, code := range codeSamples {
		t.Run(name, func(t *testing.T) {
			widths := map[string][]int{"dark": {10, 23, 47, 101, 220}, "light": {40, 140}}
			for _, th := range allThemes() {
				r := New(th)
				for _, width := range widths[th.Name] {
					requireSameAsWrapped(t, r, code, width)
					requireSameAsWrapped(t, r, "Before:\n\n"+code+"\n\nAfter.", width)
				}
			}
		})
	}
}

// TestCodeLinesMatchGlamourProperty: the same for random Go-like code.
func TestCodeLinesMatchGlamourProperty(t *testing.T) {
	r := New(themes.Dark())
	pieces := []string{"x", " ", "\t", "\n", "\"s", "`r", "/*", "*/", "//", "func", "{", "}", "0x1F", "'c'", "\\", ":=", "日本", "*", "**", "@", "_"}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for i, n := 0, rapid.IntRange(0, 40).Draw(t, "n"); i < n; i++ {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		lang := rapid.SampledFrom([]string{"go", "", "python", "c", "md", "json"}).Draw(t, "lang")
		src := "```" + lang + "\n" + b.String()
		if rapid.Bool().Draw(t, "closed") {
			src += "\n```"
		}
		requireSameAsWrapped(t, r, src, rapid.IntRange(10, 150).Draw(t, "width"))
	})
}

// TestCodeLinesTaken: a code block that fits is made from tokens, not
// by glamour; one that does not fit, or is not a plain fence, is not.
func TestCodeLinesTaken(t *testing.T) {
	r := New(themes.Dark())
	cases := []struct {
		name, src string
		want      bool
	}{
		{"go", codeSamples["go"], true},
		{"no language", codeSamples["no language"], true},
		{"long line", codeSamples["long line"], false},
		{"unclosed", codeSamples["unclosed"], true},
		{"indented close", codeSamples["indented close"], false},
		{"fence in body", codeSamples["fence in body"], false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ok := r.codeLines(c.src, 60)
			if ok != c.want {
				t.Fatalf("codeLines took it: %v, want %v", ok, c.want)
			}
		})
	}
}

// TestParseFence: the language and code goldmark reads from a fence.
func TestParseFence(t *testing.T) {
	cases := []struct {
		src, lang, code string
		ok              bool
	}{
		{"```go\nx\n```", "go", "x\n", true},
		{"```go {.a}\nx\n```\n\n", "go", "x\n", true},
		{"~~~\na\nb\n~~~~", "", "a\nb\n", true},
		{"```\n```", "", "", true},
		{"```go\nx\n~~~", "go", "x\n~~~\n", true},
		{"````\nx\n```", "", "x\n```\n", true},
		{"```go\nx\ny", "go", "x\ny\n", true},
		{" ```\nx\n```", "", "", false},
		{"```a`b\nx\n```", "", "", false},
		{"```go&amp;\nx\n```", "", "", false},
	}
	for i, c := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			lang, code, ok := parseFence(c.src)
			if ok != c.ok || ok && (lang != c.lang || code != c.code) {
				t.Fatalf("parseFence(%q) = %q, %q, %v; want %q, %q, %v", c.src, lang, code, ok, c.lang, c.code, c.ok)
			}
		})
	}
}

// TestResumesAsIs: which styles glamour's writers restore unchanged on a
// token's next line.
func TestResumesAsIs(t *testing.T) {
	cases := []struct {
		name, esc string
		want      bool
	}{
		{"none", "", true},
		{"colour", "\x1b[38;5;173m", true},
		{"bold and colour", "\x1b[1m\x1b[38;5;251m", false},
		{"colour on colour", "\x1b[38;5;255m\x1b[48;5;203m", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := resumesAsIs(c.esc); got != c.want {
				t.Fatalf("resumesAsIs(%q) = %v, want %v", c.esc, got, c.want)
			}
		})
	}
}

// TestLexerNamed: the remembered lookup answers as chroma's, for a known
// name, an alias, an unknown name and none.
func TestLexerNamed(t *testing.T) {
	for _, name := range []string{"go", "golang", "sh", "nosuchlanguage", ""} {
		t.Run(name, func(t *testing.T) {
			for range 2 {
				if got, want := lexerNamed(name), lexers.Get(name); got != want {
					t.Fatalf("lexerNamed(%q) = %v, want %v", name, got, want)
				}
			}
		})
	}
}
