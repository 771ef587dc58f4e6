package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

var goldenWidths = []int{80, 40}

func allThemes() []themes.Theme { return []themes.Theme{themes.Dark(), themes.Light()} }

// checkWidth fails when a line is wider than width cells.
func checkWidth(t tb, lines []string, width int) {
	t.Helper()
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("line %d is %d cells wide, limit %d: %q", i, w, width, l)
		}
		if strings.ContainsRune(l, '\n') {
			t.Fatalf("line %d contains a newline: %q", i, l)
		}
		if !selfContained(l) {
			t.Fatalf("line %d leaves a style or link open: %q", i, l)
		}
	}
}

// selfContained reports whether a line resets every style it sets and
// closes every hyperlink it opens: its last SGR sequence is a reset and
// its last OSC 8 has an empty target.
func selfContained(l string) bool {
	lastSGR, lastLink := "", ""
	for i := 0; i+1 < len(l); i++ {
		if l[i] != 0x1b {
			continue
		}
		if n := leadingSGR(l[i:]); n > 0 {
			lastSGR = l[i : i+n]
		} else if strings.HasPrefix(l[i:], "\x1b]8;") {
			body := l[i+4:] // params;target, up to BEL or ESC
			if k := strings.IndexAny(body, "\x07\x1b"); k >= 0 {
				body = body[:k]
			}
			lastLink = body[strings.IndexByte(body, ';')+1:]
		}
	}
	return (lastSGR == "" || lastSGR == "\x1b[m" || lastSGR == "\x1b[0m") && lastLink == ""
}

// stripped joins lines without their escape sequences, marking the right
// edge so that trailing spaces are visible in the golden file.
func stripped(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(ansi.Strip(l))
		b.WriteString("⏎\n")
	}
	return b.String()
}

// TestGoldenItems renders every kind (and its states) at two widths in
// both themes, compared ANSI-stripped with golden files.
func TestGoldenItems(t *testing.T) {
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, th := range allThemes() {
				for _, w := range goldenWidths {
					t.Run(th.Name+"_"+strconv.Itoa(w), func(t *testing.T) {
						r := New(th)
						lines := r.Item(c.item(t), w, c.opts)
						checkWidth(t, lines, w)
						golden.RequireEqual(t, stripped(lines))
					})
				}
			}
		})
	}
}

// TestGoldenPending renders pending prompts in each state.
func TestGoldenPending(t *testing.T) {
	for _, st := range []model.PendingStatus{model.PendingSending, model.PendingQueued, model.PendingRetrying, model.PendingStarted} {
		t.Run(string(st), func(t *testing.T) {
			for _, th := range allThemes() {
				for _, w := range goldenWidths {
					t.Run(th.Name+"_"+strconv.Itoa(w), func(t *testing.T) {
						r := New(th)
						p := model.PendingEntry{CommandID: "c9", Text: "and then update the changelog with the fix, including the issue number",
							Status: st, Anchor: 4, Order: 1}
						lines := r.Pending(p, w)
						checkWidth(t, lines, w)
						golden.RequireEqual(t, stripped(lines))
					})
				}
			}
		})
	}
}

// TestGoldenColour keeps the escape sequences for a few rows, in both
// themes, so that a change of colours or attributes is seen.
func TestGoldenColour(t *testing.T) {
	want := map[string]bool{"user_message": true, "agent_message": true, "tool_failed": true, "error": true, "reasoning_collapsed": true}
	for _, c := range goldenCases() {
		if !want[c.name] {
			continue
		}
		for _, th := range allThemes() {
			t.Run(c.name+"_"+th.Name, func(t *testing.T) {
				lines := New(th).Item(c.item(t), 60, c.opts)
				checkWidth(t, lines, 60)
				golden.RequireEqual(t, strings.Join(lines, "\n")+"\n")
			})
		}
	}
}

// TestThemesDiffer: the same item renders with different escape
// sequences in the dark and light themes, and identically once stripped.
func TestThemesDiffer(t *testing.T) {
	for _, c := range goldenCases() {
		it := c.item(t)
		d := New(themes.Dark()).Item(it, 70, c.opts)
		l := New(themes.Light()).Item(it, 70, c.opts)
		if strings.Join(d, "\n") == strings.Join(l, "\n") {
			t.Errorf("%s: dark and light render identically", c.name)
		}
		if stripped(d) != stripped(l) {
			t.Errorf("%s: dark and light differ in text:\n%s\n%s", c.name, stripped(d), stripped(l))
		}
	}
}
