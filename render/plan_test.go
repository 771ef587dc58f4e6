package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/themes"
)

// The pinned plan fits its lines and width: one line collapsed (the
// count and the current step as it is being done), else a header and the
// steps around the current one, saying how many it hides.
func TestPinnedPlan(t *testing.T) {
	it := mustItem(t, itemJSON("p1", "plan", "inProgress", 3, map[string]any{"steps": planSteps()}))
	r := New(themes.Dark())
	for _, c := range []struct {
		name      string
		width     int
		max       int
		collapsed bool
		hint      string
		want      []string
	}{
		{"collapsed", 80, 3, true, "alt+p", []string{" ☰ Plan 2/5 · Adding a regression test for the tokenizer's off-by-one at the e…"}},
		{"one line", 40, 1, false, "", []string{" ☰ Plan 2/5 · Adding a regression test…"}},
		{"three lines", 80, 3, false, "alt+p", []string{" ☰ Plan 2/5 · 3 more · alt+p", "   ✓ Find the cause",
			"   ▸ Adding a regression test for the tokenizer's off-by-one at the end of input"}},
		{"every step", 80, 6, false, "", []string{" ☰ Plan 2/5", "   ✓ Read the failing test", "   ✓ Find the cause",
			"   ▸ Adding a regression test for the tokenizer's off-by-one at the end of input", "   ○ Fix the parser", "   ○ Run the tests"}},
	} {
		lines := r.PinnedPlan(it, c.width, c.max, c.collapsed, c.hint)
		checkWidth(t, lines, c.width)
		if got := strings.TrimSuffix(strings.ReplaceAll(stripped(lines), "⏎", ""), "\n"); got != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, strings.Join(c.want, "\n"))
		}
	}
	done := mustItem(t, itemJSON("p2", "plan", "inProgress", 3, map[string]any{"steps": []any{
		map[string]any{"text": "a", "status": "completed"}, map[string]any{"text": "b", "status": "completed"}, map[string]any{"text": "c", "status": "completed"}}}))
	if got := stripped(r.PinnedPlan(done, 80, 3, false, "")); got != " ☰ Plan 3/3 · 1 more⏎\n   ✓ b⏎\n   ✓ c⏎\n" {
		t.Errorf("all done shows %q, want the last steps", got)
	}
	if r.PinnedPlan(nil, 80, 3, false, "") != nil || r.PinnedPlan(it, 80, 0, false, "") != nil {
		t.Error("a nil plan or no room draws lines")
	}
}
