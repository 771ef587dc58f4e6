package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"charm.land/glamour/v2"

	"github.com/lookout-sh/lookout/themes"
)

// everyBlock holds each kind of block and inline glamour renders,
// including the GFM and definition-list extensions.
const everyBlock = "# Title\n\n## Section {#id}\n\nA paragraph with **strong**, *emphasis*, `code`, ~~strike~~, " +
	"a [link](https://example.com \"t\"), <https://auto.example>, www.example.com and an ![image](i.png).\n\n" +
	"> A quote\n> on two lines.\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n- [ ] open\n- [x] done\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n\n    indented code\n\n| a | b |\n|---|:-:|\n| 1 | two |\n\n" +
	"Term\n: its definition\n\n---\n\n<div>html</div>\n\nLast line with a footnote-like [^1] and &amp; entity.\n"

// TestMDRendererIsGlamours: the kept-buffer renderer gives glamour's own
// bytes, for every block kind and the bench answer's sections, at several
// wrap widths (0: the unwrapped renderer) in both themes, one renderer
// reused across all of them.
func TestMDRendererIsGlamours(t *testing.T) {
	sources := []string{everyBlock, "", "plain", strings.Repeat("long paragraph words ", 400)}
	if answer := benchtext.Find(); answer != "" {
		sections := strings.Split(answer, "\n## ")
		step := 1
		if raceEnabled {
			step = 13 // a sample: glamour is slow under the race detector
		}
		for i := 0; i < len(sections); i += step {
			sources = append(sources, "## "+sections[i])
		}
	}
	for _, th := range []themes.Theme{themes.Dark(), themes.Light()} {
		for _, wrap := range []int{0, 36, 118} {
			ours := newMDRenderer(th.Markdown, wrap)
			theirs, err := glamour.NewTermRenderer(glamour.WithStyles(th.Markdown), glamour.WithWordWrap(wrap), glamour.WithChromaFormatter(codeFormatterName))
			if err != nil {
				t.Fatal(err)
			}
			for i, src := range sources {
				got, err1 := ours.Render(src)
				want, err2 := theirs.Render(src)
				if got != want || (err1 == nil) != (err2 == nil) {
					t.Fatalf("%s, wrap %d, source %d: ours %q (%v), glamour %q (%v)", th.Name, wrap, i, got, err1, want, err2)
				}
			}
		}
	}
}
