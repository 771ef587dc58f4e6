package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

// On a very wide terminal prose wraps at ProseMeasure. glamour wraps a
// whole document at one width, so a long code line wraps there too, and
// none of it is lost.
func TestProseWrapsAtAReadableMeasure(t *testing.T) {
	prose := strings.Repeat("word ", 80)
	code := "x := " + strings.Repeat("a", 180)
	src := prose + "\n\n```go\n" + code + "\n```\n"
	const width = 220
	r := New(themes.Dark())
	agent := mustItem(t, itemJSON("a", model.KindAgentMessage, "completed", 1, map[string]any{"text": src}))
	user := mustItem(t, itemJSON("u", model.KindUserMessage, "completed", 1, map[string]any{"text": prose}))
	for _, it := range []*model.Item{agent, user} {
		lines := r.Item(it, width, ItemOptions{})
		checkWidth(t, lines, width)
		as := 0
		for _, l := range lines {
			p := strings.TrimRight(ansi.Strip(l), " ")
			if strings.Contains(p, "word") && ansi.StringWidth(p) > ProseMeasure+4 {
				t.Fatalf("%s: prose line %d cells wide: %q", it.Kind, ansi.StringWidth(p), p)
			}
			as += strings.Count(p, "a")
		}
		if it == agent && as < 180 {
			t.Fatalf("the code line lost characters: %d of 180", as)
		}
	}
	// Narrower than the measure nothing changes: the width wins.
	lines := r.Item(user, 60, ItemOptions{})
	checkWidth(t, lines, 60)
}
