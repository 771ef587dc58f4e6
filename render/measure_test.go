package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

// On a very wide terminal prose wraps at ProseMeasure and a long code
// line keeps the whole width.
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
		whole := false
		for _, l := range lines {
			p := strings.TrimRight(ansi.Strip(l), " ")
			if strings.Contains(p, "word") && ansi.StringWidth(p) > ProseMeasure+4 {
				t.Fatalf("%s: prose line %d cells wide: %q", it.Kind, ansi.StringWidth(p), p)
			}
			whole = whole || strings.Contains(p, "x := "+strings.Repeat("a", 180))
		}
		if it == agent && !whole {
			t.Fatalf("the code line is not whole on one line:\n%s", stripped(lines))
		}
	}
	// Narrower than the measure nothing changes: the width wins.
	lines := r.Item(user, 60, ItemOptions{})
	checkWidth(t, lines, 60)
}

func TestSplitFences(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // parts, code ones in [brackets]
	}{
		{"prose only", "a\n\nb\n", []string{"a\n\nb\n"}},
		{"code between prose", "a\n\n```go\nx\n```\n\nb", []string{"a\n\n", "[```go\nx\n```\n]", "\nb"}},
		{"code first", "```\nx\n```\nafter", []string{"[```\nx\n```\n]", "after"}},
		{"open fence runs to the end", "a\n\n~~~\nx\n", []string{"a\n\n", "[~~~\nx\n]"}},
		{"indented fence stays inside", "- item\n\n  ```\n  x\n  ```\n", []string{"- item\n\n  ```\n  x\n  ```\n"}},
		{"fence right after text is not split", "a\n```\nx\n```\n", []string{"a\n```\nx\n```\n"}},
		{"fence lines inside a fence after text", "a\n```\n\n```go\nx\n```\n\nb", []string{"a\n```\n\n```go\nx\n```\n\nb"}},
		{"indented fence lines inside", "  ```\n\n```\n\n```\nx\n```\n", []string{"  ```\n\n```\n\n", "[```\nx\n```\n]"}},
		{"longer closing fence needed", "````\n```\nx\n````\nz", []string{"[````\n```\nx\n````\n]", "z"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range splitFences(c.src) {
				if p.code {
					got = append(got, "["+p.text+"]")
				} else {
					got = append(got, p.text)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("splitFences(%q) = %q, want %q", c.src, got, c.want)
			}
		})
	}
}

// Split or not, a message reads the same at a wide width: the same lines
// as one glamour render, except where prose wraps.
func TestMeasuredMarkdownKeepsSpacing(t *testing.T) {
	src := "Intro line.\n\n```go\nfunc f() {}\n```\n\n- one\n- two\n\n```\nplain\n```\n\nThe end."
	r := New(themes.Dark())
	got := stripped(r.markdown(src, 160))
	want := "Intro line.⏎\n⏎\n  func f() {}⏎\n⏎\n• one⏎\n• two⏎\n⏎\n  plain⏎\n⏎\nThe end.⏎\n"
	if strings.ReplaceAll(got, " ⏎", "⏎") != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
