package hosttest

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// LongAnswer is n bytes (fewer by at most three, to end on a rune) of
// markdown as an agent writes it: headings, paragraphs with quotes and
// non-ASCII text, lists and fenced code, every section numbered so that
// a cut or a reordering shows. The same n gives the same text.
func LongAnswer(n int) string {
	var b strings.Builder
	b.Grow(n + 512)
	for i := 1; b.Len() < n; i++ {
		k := strconv.Itoa(i)
		b.WriteString("## Section " + k + "\n\n")
		b.WriteString("Paragraph " + k + " says \"why\" and `how`, with naïve café text — and a \\ backslash.\n\n")
		b.WriteString("- item " + k + ".1\n- item " + k + ".2 **bold** _italic_\n\n")
		b.WriteString("```go\nfunc section" + k + "() string { return \"<" + k + ">\" }\n```\n\n")
	}
	s := b.String()[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
