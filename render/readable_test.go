package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// bgRun matches a background colour set, the text it paints and the next
// escape sequence.
var bgRun = regexp.MustCompile("\x1b\\[[0-9;]*48;5;[0-9]+[0-9;]*m([^\x1b]*)\x1b")

// TestMarkdownReadsLikeProse: inline code is coloured only over its own
// text, with no padding spaces around it, and headings show no literal
// "#" markers, in both themes.
func TestMarkdownReadsLikeProse(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // ANSI-stripped lines, trimmed
		painted   []string // the text under a background, in order
	}{
		{"code mid-sentence", "it works even `from()` here",
			[]string{"it works even from() here"}, []string{"from()"}},
		{"code at the end of a line", "call `x`\n\nnext",
			[]string{"call x", "", "next"}, []string{"x"}},
		{"headings", "## Second\n\n### Third\n\n#### Fourth\n\ntext",
			[]string{"Second", "", "Third", "", "Fourth", "", "text"}, nil},
	}
	for _, th := range allThemes() {
		for _, c := range cases {
			t.Run(th.Name+"/"+c.name, func(t *testing.T) {
				lines := New(th).markdown(c.src, 60)
				var got []string
				for _, l := range lines {
					got = append(got, strings.TrimSpace(ansi.Strip(l)))
				}
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Fatalf("lines %q, want %q", got, c.want)
				}
				var painted []string
				for _, l := range lines {
					for _, m := range bgRun.FindAllStringSubmatch(l, -1) {
						painted = append(painted, m[1])
					}
				}
				if strings.Join(painted, "|") != strings.Join(c.painted, "|") {
					t.Fatalf("background over %q, want only %q", painted, c.painted)
				}
			})
		}
	}
}
