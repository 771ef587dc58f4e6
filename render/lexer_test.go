package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2"
	"pgregory.net/rapid"
)

// lexerSamples are languages with their own shapes of rules: nested
// states, case-insensitive rules, lookarounds, sub-lexers, heredocs.
var lexerSamples = map[string]string{
	"go":         "package main\n\nimport \"fmt\"\n\n// f does x.\nfunc f(a int) (string, error) {\n\ts := `raw\nstring {{.X}}`\n\t/* multi\n\tline */\n\tx := 0x1F + 'c' + 1.5e3i\n\tfmt.Println(\"a\\\"b\", s)\n\treturn nil, nil\n}\n",
	"python":     "@decorator\ndef f(x: int) -> str:\n    \"\"\"doc\n    string\"\"\"\n    y = f'{x!r:>10}' + r'\\d' + b\"bytes\"\n    return lambda: y  # comment\nclass A(B, metaclass=M):\n    pass\n",
	"javascript": "const re = /a[b/]c/gi; let t = `x ${y + `z`} w`;\nclass A extends B { async *gen() { yield await 1n; } }\n// c\n/* d */\n",
	"typescript": "interface A<T> { x?: T; readonly y: number[] }\nfunction f<T extends A<T>>(a: T): void {}\n",
	"bash":       "#!/bin/bash\nfor f in *.go; do\n  echo \"$f ${f%.go}\" | grep -E '^x' >/dev/null 2>&1\ndone\ncat <<EOF\nheredoc $HOME\nEOF\n",
	"json":       "{\"a\": [1, -2.5e3, true, null, {\"b\": \"c\\n\"}], \"d\": @@@ }\n",
	"yaml":       "key: |\n  block\n  text\nlist:\n  - a: 1\n  - &anchor b\n  - *anchor\n# comment\n",
	"sql":        "SELECT a, COUNT(*) FROM t WHERE b LIKE 'x%' GROUP BY a; -- c\ninsert into T values (1, 'two');\n",
	"rust":       "/// doc\n#[derive(Debug)]\nfn main<'a>(x: &'a str) -> Result<(), Box<dyn Error>> { println!(\"{}\", r#\"raw\"#); Ok(()) }\n",
	"c":          "#include <stdio.h>\n#define X(a) ((a) * 2)\nint main(void) { char *s = \"a\\tb\"; /* c */ return 0; }\n",
	"html":       "<!DOCTYPE html>\n<!-- a\ncomment -->\n<div class=\"x\" onclick=\"f()\"><script>let a = 1;</script><style>p { color: red }</style></div>\n",
	"diff":       "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n context\n",
	"markdown":   "# Title\n\n*emph\nmore* and **strong** `code` [link](url)\n\n```go\nx := 1\n```\n",
	"toml":       "[section]\nkey = \"value\" # c\narr = [1, 2]\n",
	"dockerfile": "FROM golang:1.26 AS build\nRUN go build -o /x ./...\nCOPY --from=build /x /x\n",
	"makefile":   "all: build\n\nbuild:\n\tgo build ./...\n\nX := $(shell ls)\n",
	"ruby":       "def f(x)\n  puts \"#{x} #{@y}\" if x =~ /ab+c/i\nend\n=begin\nblock\n=end\n",
	"java":       "@Override\npublic <T> List<T> f(final int x) throws IOException { return new ArrayList<>(); }\n",
	"php":        "<?php\n$x = \"a $b {$c['d']}\";\necho <<<EOT\nheredoc\nEOT;\n?>\n<p>html</p>\n",
	"css":        "@media (max-width: 600px) { .a > b:hover::before { content: \"x\"; color: #fff !important } }\n",
	"powershell": "$x = Get-ChildItem -Path . | Where-Object { $_.Length -gt 1KB }\n",
}

// chromaTokens is what chroma's own lexer makes of text, coalesced.
func chromaTokens(t tb, l chroma.Lexer, text string) []chroma.Token {
	t.Helper()
	toks, err := chroma.Tokenise(chroma.Coalesce(l), nil, text)
	if err != nil {
		t.Fatal(err)
	}
	return toks
}

// requireSameTokens fails unless the fast form of l (l itself when it
// has none) tokenises text as l.
func requireSameTokens(t tb, l chroma.Lexer, text string) {
	t.Helper()
	fast := withFastRules(l)
	want := chromaTokens(t, l, text)
	got := chromaTokens(t, fast, text)
	// chroma's own loop takes a spurious match timeout for no match
	// (lexer_timeout.go): ask it again before calling a difference real.
	for try := 0; try < matchRetries && !slices.Equal(got, want); try++ {
		want = chromaTokens(t, l, text)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s on %q:\nfast   %v\nchroma %v", l.Config().Name, text, got, want)
	}
}

// TestFastLexerMatchesChroma: the fast lexers make chroma's tokens for
// samples of many languages, for every prefix of each sample (cut
// constructs, unclosed strings and comments) and for the benchmark
// answer's code blocks.
func TestFastLexerMatchesChroma(t *testing.T) {
	for lang, text := range lexerSamples {
		t.Run(lang, func(t *testing.T) {
			l := lexers.Get(lang)
			if l == nil {
				t.Fatalf("no lexer for %s", lang)
			}
			for i := range len(text) + 1 {
				requireSameTokens(t, l, text[:i])
			}
		})
	}
	t.Run("longmd", func(t *testing.T) {
		for _, p := range splitFences(benchtext.Longmd(t)) {
			if !p.code {
				continue
			}
			lang, code, ok := parseFence(strings.TrimSpace(p.text))
			if !ok {
				t.Fatalf("not a fence: %q", p.text)
			}
			if l := lexerNamed(lang); l != nil {
				requireSameTokens(t, l, code)
			}
		}
	})
}

// TestFastLexerMatchesChromaProperty: the same for random text made of
// pieces that open and close the constructs of several languages.
func TestFastLexerMatchesChromaProperty(t *testing.T) {
	pieces := []string{"x", "Y", " ", "\t", "\n", "\r\n", "\"", "'", "`", "/*", "*/", "//", "#", "<!--", "-->", "<a>", "</a>",
		"func", "def", "SELECT", "select", "{", "}", "(", ")", "0x1F", "1.5e3", "\\", ":=", "${", "$x", "<<EOF\n", "EOF\n", "日本", "é", "@", "_", ";", "\x00"}
	langs := make([]string, 0, len(lexerSamples))
	for lang := range lexerSamples {
		langs = append(langs, lang)
	}
	slices.Sort(langs)
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for i, n := 0, rapid.IntRange(0, 30).Draw(t, "n"); i < n; i++ {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		requireSameTokens(t, lexers.Get(rapid.SampledFrom(langs).Draw(t, "lang")), b.String())
	})
}

// TestFastLexerTaken: plain regex lexers get a fast form, lexers that
// delegate to others (markdown with HTML inside) keep chroma's.
func TestFastLexerTaken(t *testing.T) {
	for _, c := range []struct {
		lang string
		want bool
	}{{"go", true}, {"python", true}, {"json", true}, {"bash", true}, {"html", true}, {"markdown", false}} {
		t.Run(c.lang, func(t *testing.T) {
			_, got := withFastRules(lexers.Get(c.lang)).(*fastLexer)
			if got != c.want {
				t.Fatalf("fast form: %v, want %v", got, c.want)
			}
		})
	}
}

// TestFastLexerMatchesChromaEveryLexer: every lexer chroma has tokenises
// a few lines of several languages' constructs through its fast form as
// chroma does, and most lexers have one.
func TestFastLexerMatchesChromaEveryLexer(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	const text = "x = 1 // c\n/* d */ \"s\\\"\" 'c' `r` <a href=\"u\">t</a>\n# h\n  - item: [1, 2.5e3]\nfunc f() { return nil }\n$X ${y} @z %w\n"
	// Every prefix; under the race detector (about 20 times slower here)
	// every line and every sixteenth prefix, which still cuts tokens midway.
	stride := 1
	if raceEnabled {
		stride = 16
	}
	fast := 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		t.Run(l.Config().Name, func(t *testing.T) {
			if l.Config().Name == "Jungle" {
				t.Skip("chroma's own Jungle lexer never ends on some prefixes of the text")
			}
			if _, ok := withFastRules(l).(*fastLexer); ok {
				fast++
			}
			for i := range len(text) + 1 {
				if i%stride == 0 || i == len(text) || text[i-1] == '\n' {
					requireSameTokens(t, l, text[:i])
				}
			}
		})
	}
	if fast < len(lexers.GlobalLexerRegistry.Lexers)*3/4 {
		t.Fatalf("only %d of %d lexers have a fast form", fast, len(lexers.GlobalLexerRegistry.Lexers))
	}
}

// Only a regexp that names a group gets a map of named groups.
func TestNamesGroups(t *testing.T) {
	for _, c := range []struct {
		expr string
		want bool
	}{
		{`abc`, false},
		{`(a)(b)`, false},
		{`(?:a)+`, false},
		{`(?<adverbs>:\w+)*`, true},
		{`(a)(?'name'b)`, true},
		{`(?<12>a)`, false},
	} {
		t.Run(c.expr, func(t *testing.T) {
			if got := namesGroups(regexp2.MustCompile(c.expr, 0)); got != c.want {
				t.Fatalf("namesGroups(%q) = %v, want %v", c.expr, got, c.want)
			}
		})
	}
}
