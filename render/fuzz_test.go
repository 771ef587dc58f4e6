package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext/termtexttest"
	"github.com/lookout-sh/lookout/themes"
)

// FuzzRenderItems renders arbitrary host text as a kind of item the input
// picks, at a fuzzed width, collapsed and expanded, and as a markdown
// message streamed in two pieces. Whatever
// the text: no panic, no line wider than the width or left with a style
// open, and nothing reaches the terminal but the renderer's own styling
// (termtexttest.CheckStyled).
func FuzzRenderItems(f *testing.F) {
	f.Add(sampleMarkdown, uint8(80), uint8(10))
	f.Add("```go\nfunc main() {\n\tprintln(\"\x1b]52;c;aGk=\x07\")\n}\n```\n| a | b |\n|---|---|\n| 1 | 2 |", uint8(40), uint8(7))
	f.Add("- item\n  - nested `code` **bold** [link](http://x)\n> quote\r\n\x9b31mred", uint8(12), uint8(3))
	f.Add("# h1\n\n1. one\n2. two\n\n---\n\n漢字 emoji 🚀 \u202eevil", uint8(3), uint8(200))
	r := map[bool]*Renderer{true: New(themes.Dark()), false: New(themes.Light())}
	f.Fuzz(func(t *testing.T, text string, w, cut uint8) {
		width := 1 + int(w)%160
		rd := r[w%2 == 0]
		split := 0
		if len(text) > 0 {
			split = int(cut) % (len(text) + 1)
		}
		items := []*model.Item{
			mustItem(t, itemJSON("a", "agentMessage", "completed", 2, map[string]any{"text": text})),
			mustItem(t, itemJSON("u", "userMessage", "completed", 1, map[string]any{"text": text})),
			mustItem(t, itemJSON("r", "reasoning", "completed", 2, map[string]any{"summary": []string{text, text}})),
			mustItem(t, itemJSON("t", "toolCall", "completed", 3, map[string]any{"toolName": text, "inputText": text, "output": text, "exitCode": 1, "error": text})),
			mustItem(t, itemJSON("e", "error", "failed", 1, map[string]any{"message": text})),
			mustItem(t, itemJSON("f", "fileChange", "failed", 2, map[string]any{"error": text,
				"changes": []any{map[string]any{"path": text, "kind": "update", "movePath": text, "diff": text}}})),
			mustItem(t, itemJSON("x", "somethingNew", "inProgress", 1, map[string]any{text: text})),
			mustItem(t, itemJSON("p", "plan", "inProgress", 2, map[string]any{"explanation": text, "steps": []any{
				map[string]any{"text": text, "status": "completed"}, map[string]any{"text": text, "status": "inProgress", "activeText": text},
				map[string]any{"text": text, "status": text}}})),
		}
		for _, it := range items[int(cut)%len(items) : int(cut)%len(items)+1] {
			for _, expanded := range []bool{false, true} {
				lines := rd.Item(it, width, ItemOptions{Expanded: expanded})
				checkWidth(t, lines, width)
				if err := termtexttest.CheckStyled(strings.Join(lines, "\n"), termtexttest.Cases()); err != nil {
					t.Fatalf("%s at width %d: %v", it.Kind, width, err)
				}
			}
			if it.Kind == model.KindPlan {
				for _, collapsed := range []bool{false, true} {
					lines := rd.PinnedPlan(it, width, 1+int(cut)%6, collapsed, text)
					checkWidth(t, lines, width)
					if err := termtexttest.CheckStyled(strings.Join(lines, "\n"), termtexttest.Cases()); err != nil {
						t.Fatalf("pinned plan at width %d: %v", width, err)
					}
				}
			}
		}
		// A message streamed in two pieces, then completed.
		ss := newSession(t)
		ss.send(model.MethodItemStarted, map[string]any{"item": map[string]any{"itemId": "s", "kind": "agentMessage", "turnId": "t1",
			"revision": 1, "status": "inProgress", "position": 9, "text": ""}})
		ss.send(model.MethodItemDelta, map[string]any{"itemId": "s", "delta": text[:split]})
		checkWidth(t, rd.Item(ss.s.Item("s"), width, ItemOptions{}), width)
		ss.send(model.MethodItemDelta, map[string]any{"itemId": "s", "delta": text[split:]})
		lines := rd.Item(ss.s.Item("s"), width, ItemOptions{})
		checkWidth(t, lines, width)
		if err := termtexttest.CheckStyled(strings.Join(lines, "\n"), termtexttest.Cases()); err != nil {
			t.Fatalf("streamed message at width %d: %v", width, err)
		}
	})
}
