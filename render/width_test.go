package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
	"pgregory.net/rapid"
)

// textGen draws text that is hard to lay out: wide graphemes, emoji, tabs,
// escape sequences, carriage returns, long words, markdown syntax.
func textGen() *rapid.Generator[string] {
	pieces := []string{
		"a", "word", " ", " ", "\n", "\n\n", "\t", "漢字", "🚀", "👩‍👩‍👧", "é", "e\u0301",
		"\x1b[31m", "\x1b[0m", "\r", "\x07", "\x00", "```", "```go\n", "# ", "- ", "1. ", "> ",
		"**", "`", "|a|b|\n|-|-|\n", "    ", "https://example.com/a/very/long/path/that/does/not/break",
		strings.Repeat("x", 70), strings.Repeat("長", 40), "\xff", "\u00a0", "\u200b", "\u0085", "\x9b31m", "\x1b]8;;u\x1b\\", "\x1bP", "\x1b[",
	}
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		return b.String()
	})
}

func randomItem(t *rapid.T) *model.Item {
	kinds := []string{"userMessage", "agentMessage", "reasoning", "toolCall", "contextCompaction", "error", "mystery"}
	statuses := []string{"inProgress", "completed", "failed", "stopped", "inputStreaming", "ready", "waitingUser", "running", ""}
	kind := rapid.SampledFrom(kinds).Draw(t, "kind")
	status := rapid.SampledFrom(statuses).Draw(t, "status")
	text := textGen().Draw(t, "text")
	extra := map[string]any{"text": text}
	switch kind {
	case "reasoning":
		extra = map[string]any{"summary": []string{text, textGen().Draw(t, "part2")}}
	case "toolCall":
		extra = map[string]any{"toolName": textGen().Draw(t, "tool"), "inputText": textGen().Draw(t, "input"), "output": text}
		if rapid.Bool().Draw(t, "parsed") {
			extra["input"] = map[string]any{"command": textGen().Draw(t, "cmd")}
		}
		if rapid.Bool().Draw(t, "exit") {
			extra["exitCode"] = rapid.IntRange(-1, 255).Draw(t, "code")
		}
		if rapid.Bool().Draw(t, "truncated") {
			extra["truncated"] = []string{"output", "inputText"}
		}
	case "error":
		extra = map[string]any{"message": text}
	case "mystery":
		extra = map[string]any{textGen().Draw(t, "fieldName"): text, "n": 3, "obj": map[string]any{"k": text}}
	}
	if rapid.Bool().Draw(t, "hostDeath") {
		extra["endedBy"] = "hostDeath"
	}
	it, err := model.DecodeItem([]byte(itemJSON("p1", kind, status, 1, extra)))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	it.TerminalUnknown = rapid.Bool().Draw(t, "terminalUnknown")
	return it
}

// TestPropertyWidth: whatever the item and the width, no line is wider
// than the width and no line holds a newline.
func TestPropertyWidth(t *testing.T) {
	dark, light := New(themes.Dark()), New(themes.Light())
	rapid.Check(t, func(t *rapid.T) {
		it := randomItem(t)
		width := rapid.IntRange(1, 200).Draw(t, "width")
		if rapid.IntRange(0, 3).Draw(t, "narrow") > 0 {
			width = rapid.IntRange(10, 200).Draw(t, "width10")
		}
		o := ItemOptions{
			Expanded: rapid.Bool().Draw(t, "expanded"),
			Selected: rapid.Bool().Draw(t, "selected"),
			Spinner:  rapid.SampledFrom([]string{"", "⠋", "◐"}).Draw(t, "spinner"),
		}
		r := dark
		if rapid.Bool().Draw(t, "light") {
			r = light
		}
		r.Forget(it.ID)
		for i, l := range r.body(it, &itemCache{}, width, o) {
			if strings.ContainsRune(l, '\n') {
				t.Fatalf("%s renderer produced a newline in line %d: %q", it.Kind, i, l)
			}
		}
		lines := r.Item(it, width, o)
		if len(lines) == 0 {
			t.Fatalf("item rendered as no lines")
		}
		checkWidth(t, lines, width)
		p := model.PendingEntry{CommandID: "c", Text: it.Text(), Status: model.PendingQueued}
		checkWidth(t, r.Pending(p, width), width)
	})
}

// TestPropertyStreamingWidth: an agent message streamed in random pieces
// keeps every line within the width at every step.
func TestPropertyStreamingWidth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ss := newSession(t)
		ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": ""}))
		r := New(themes.Dark())
		width := rapid.IntRange(10, 120).Draw(t, "width")
		for i, n := 0, rapid.IntRange(1, 12).Draw(t, "deltas"); i < n; i++ {
			ss.delta("a1", "text", textGen().Draw(t, "delta"))
			checkWidth(t, r.Item(ss.item("a1"), width, ItemOptions{Spinner: "⠋"}), width)
		}
	})
}

// TestPropertyCellWidth: the fast width agrees with ansi.StringWidth on
// hostile text, raw and styled.
func TestPropertyCellWidth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := textGen().Draw(t, "s")
		for _, v := range []string{s, themes.Dark().Error.Render(s), "\x1b]8;;https://x\x07" + s + "\x1b]8;;\x07"} {
			if got, want := CellWidth(v), ansi.StringWidth(v); got != want {
				t.Fatalf("cellWidth(%q) = %d, ansi.StringWidth = %d", v, got, want)
			}
		}
	})
}
