package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
	"pgregory.net/rapid"
)

func sameSlice(a, b []string) bool { return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0] }

// TestCacheSameKeyNoRerender: asking again for the same item version,
// width and options renders nothing and returns the cached lines.
func TestCacheSameKeyNoRerender(t *testing.T) {
	r := New(themes.Dark())
	it := mustItem(t, itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": sampleMarkdown}))
	first := r.Item(it, 80, ItemOptions{})
	st := r.Stats()
	if st.ItemRenders != 1 || st.MarkdownRenders != 1 {
		t.Fatalf("first render: %+v", st)
	}
	again := r.Item(it, 80, ItemOptions{})
	if !sameSlice(first, again) || r.Stats() != st {
		t.Fatalf("second render was not a cache hit: %+v", r.Stats())
	}
	// A spinner frame on a finished item changes nothing either.
	if got := r.Item(it, 80, ItemOptions{Spinner: "⠋"}); !sameSlice(first, got) || r.Stats() != st {
		t.Fatalf("spinner on a finished item missed the cache: %+v", r.Stats())
	}
}

// TestCacheWidthOptionsTheme: a new width renders again, an old width is
// still cached, selection re-frames without rendering, a theme change
// drops everything.
func TestCacheWidthOptionsTheme(t *testing.T) {
	r := New(themes.Dark())
	it := mustItem(t, itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": sampleMarkdown}))
	w80 := r.Item(it, 80, ItemOptions{})
	w40 := r.Item(it, 40, ItemOptions{})
	if r.Stats().ItemRenders != 2 || r.Stats().MarkdownRenders != 2 {
		t.Fatalf("two widths: %+v", r.Stats())
	}
	if !sameSlice(w80, r.Item(it, 80, ItemOptions{})) || !sameSlice(w40, r.Item(it, 40, ItemOptions{})) {
		t.Fatal("an earlier width was not kept")
	}
	sel := r.Item(it, 80, ItemOptions{Selected: true})
	if r.Stats().ItemRenders != 2 || r.Stats().MarkdownRenders != 2 {
		t.Fatalf("selection rendered the body again: %+v", r.Stats())
	}
	if sel[0] == w80[0] || !strings.Contains(sel[0], "▌") || len(sel) != len(w80) {
		t.Fatalf("selected row has no marker: %q", sel[0])
	}
	for i := range sel {
		if a, b := strings.TrimPrefix(ansi.Strip(sel[i]), "▌ "), strings.TrimPrefix(ansi.Strip(w80[i]), "  "); a != b {
			t.Fatalf("line %d differs beyond the gutter: %q vs %q", i, a, b)
		}
	}
	// And back: the unselected lines are the very ones cached before.
	if !sameSlice(w80, r.Item(it, 80, ItemOptions{})) {
		t.Fatal("unselecting rendered again")
	}
	r.SetTheme(themes.Light())
	light := r.Item(it, 80, ItemOptions{})
	if r.Stats().ItemRenders != 3 || strings.Join(light, "\n") == strings.Join(w80, "\n") {
		t.Fatalf("theme change kept the old render: %+v", r.Stats())
	}
	if r.Theme().Name != "light" {
		t.Fatalf("Theme() = %q", r.Theme().Name)
	}
}

// TestCacheVersionChange: a new version of an item renders again; a
// replaced item whose Version restarted (same revision and version, new
// content) is not served stale.
func TestCacheVersionChange(t *testing.T) {
	r := New(themes.Dark())
	ss := newSession(t)
	ss.start(itemJSON("t1", "toolCall", "running", 1, map[string]any{"toolName": "bash", "output": "one\n"}))
	before := r.Item(ss.item("t1"), 60, ItemOptions{})
	ss.delta("t1", "output", "two\n")
	after := r.Item(ss.item("t1"), 60, ItemOptions{})
	if r.Stats().ItemRenders != 2 || len(after) != len(before)+1 || !strings.Contains(stripped(after), "two") {
		t.Fatalf("delta did not re-render: %+v\n%s", r.Stats(), stripped(after))
	}
	// Same id, revision and Version (a fresh fold from a snapshot) but more
	// content: must render again.
	fresh := mustItem(t, itemJSON("t1", "toolCall", "running", 1, map[string]any{"toolName": "bash", "output": "one\ntwo\nthree\n"}))
	fresh.Version = ss.item("t1").Version
	got := r.Item(fresh, 60, ItemOptions{})
	if !strings.Contains(stripped(got), "three") {
		t.Fatalf("stale render served for replaced content:\n%s", stripped(got))
	}
}

// TestForgetAndEviction: Forget drops one item; the cache holds at most
// SetMaxItems items, evicting the least recently used.
func TestForgetAndEviction(t *testing.T) {
	r := New(themes.Dark())
	it := mustItem(t, itemJSON("u1", "userMessage", "completed", 1, map[string]any{"text": "hi"}))
	r.Item(it, 50, ItemOptions{})
	r.Forget("u1")
	r.Item(it, 50, ItemOptions{})
	if r.Stats().ItemRenders != 2 {
		t.Fatalf("Forget kept the render: %+v", r.Stats())
	}
	r.SetMaxItems(8)
	hot := mustItem(t, itemJSON("hot", "userMessage", "completed", 1, map[string]any{"text": "hot"}))
	for i := range 50 {
		r.Item(hot, 50, ItemOptions{})
		r.Item(mustItem(t, itemJSON(fmt.Sprintf("i%d", i), "userMessage", "completed", 1, map[string]any{"text": "x"})), 50, ItemOptions{})
		if len(r.items) > 8 {
			t.Fatalf("%d items cached, limit 8", len(r.items))
		}
	}
	n := r.Stats().ItemRenders
	r.Item(hot, 50, ItemOptions{})
	if r.Stats().ItemRenders != n {
		t.Fatal("the most recently used item was evicted")
	}
}

// streamParagraphs streams n paragraphs into agent message a1 and returns
// the session.
func streamParagraphs(t tb, n int) *session {
	ss := newSession(t)
	ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": ""}))
	for i := range n {
		ss.delta("a1", "text", fmt.Sprintf("Paragraph %d explains one more **detail** of the fix, with `code` and a [link](https://example.com/%d).\n\n", i, i))
	}
	return ss
}

// TestStreamingRendersOnlyTail: with a long stable prefix, one delta
// re-renders only the markdown after the last stable boundary, and the
// prefix lines are reused as they were.
func TestStreamingRendersOnlyTail(t *testing.T) {
	ss := streamParagraphs(t, 60)
	ss.delta("a1", "text", "The last paragraph is still")
	r := New(themes.Dark())
	first := r.Item(ss.item("a1"), 80, ItemOptions{Spinner: "⠋"})
	prefixBytes := r.Stats().MarkdownBytes

	ss.delta("a1", "text", " streaming")
	st := r.Stats()
	second := r.Item(ss.item("a1"), 80, ItemOptions{Spinner: "⠋"})
	tail := "The last paragraph is still streaming"
	if got := r.Stats().MarkdownBytes - st.MarkdownBytes; got != len(tail) {
		t.Fatalf("one delta rendered %d bytes of markdown, want only the %d-byte tail (prefix %d bytes)", got, len(tail), prefixBytes)
	}
	if r.Stats().MarkdownRenders != st.MarkdownRenders+1 {
		t.Fatalf("one delta made %d markdown renders", r.Stats().MarkdownRenders-st.MarkdownRenders)
	}
	if len(second) != len(first) {
		t.Fatalf("line count changed %d -> %d", len(first), len(second))
	}
	for i := 0; i < len(first)-1; i++ {
		if first[i] != second[i] {
			t.Fatalf("stable line %d changed: %q -> %q", i, first[i], second[i])
		}
	}
	if !strings.HasSuffix(stripped(second), "The last paragraph is still streaming⏎\n") {
		t.Fatalf("tail not shown:\n%s", stripped(second))
	}

	// A spinner tick alone renders no markdown at all.
	st = r.Stats()
	r.Item(ss.item("a1"), 80, ItemOptions{Spinner: "⠙"})
	if r.Stats().MarkdownRenders != st.MarkdownRenders {
		t.Fatal("a spinner frame re-rendered markdown")
	}

	// A new paragraph moves the boundary: only the finished paragraph and
	// the new tail are rendered.
	st = r.Stats()
	ss.delta("a1", "text", ".\n\nNext")
	r.Item(ss.item("a1"), 80, ItemOptions{Spinner: "⠙"})
	want := len("The last paragraph is still streaming.\n\n") + len("Next")
	if got := r.Stats().MarkdownBytes - st.MarkdownBytes; got != want {
		t.Fatalf("boundary move rendered %d bytes, want %d", got, want)
	}
}

// TestStreamingFinishRendersWhole: once the message completes it renders
// whole, exactly as a fresh renderer renders it, and the streaming state
// is dropped.
func TestStreamingFinishRendersWhole(t *testing.T) {
	ss := streamParagraphs(t, 5)
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 70, ItemOptions{Spinner: "⠋"})
	text := ss.item("a1").Text()
	ss.complete(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": text + "Done."}))
	got := r.Item(ss.item("a1"), 70, ItemOptions{Spinner: "⠋"})
	want := New(themes.Dark()).Item(ss.item("a1"), 70, ItemOptions{})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("finished render differs from a fresh one:\n%s\nvs\n%s", stripped(got), stripped(want))
	}
	if r.items["a1"].md != nil {
		t.Fatal("streaming state kept after completion")
	}
	if strings.Contains(stripped(got), "⠋") {
		t.Fatal("finished message still shows the spinner")
	}
}

// TestStreamingReplacedText: a revision whose text no longer extends the
// rendered prefix starts over instead of showing stale lines.
func TestStreamingReplacedText(t *testing.T) {
	ss := streamParagraphs(t, 3)
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 70, ItemOptions{})
	ss.send(model.MethodItemUpdated, map[string]any{"item": jsonRaw(itemJSON("a1", "agentMessage", "inProgress", 2, map[string]any{"text": "Rewritten from scratch.\n\nNew tail"}))})
	got := stripped(r.Item(ss.item("a1"), 70, ItemOptions{}))
	if strings.Contains(got, "Paragraph") || !strings.Contains(got, "Rewritten from scratch.") || !strings.Contains(got, "New tail") {
		t.Fatalf("stale prefix after replacement:\n%s", got)
	}
}

// TestStreamingMatchesOneShot: however the text was cut into deltas, the
// streamed lines equal what a fresh renderer makes of the same open text.
func TestStreamingMatchesOneShot(t *testing.T) {
	blocks := []string{
		"Plain paragraph with **bold** and `code`.",
		"# Heading", "## Second heading",
		"- one\n- two\n- three",
		"1. first\n2. second",
		"```go\nfunc f() {\n\n\treturn\n}\n```",
		"~~~\nraw\n\n~~~",
		"> quoted text\n> more",
		"A paragraph\nwith a soft break.",
		"---",
		"| a | b |\n|---|---|\n| 1 | 2 |",
		"Intro:\n- a\n- b",
		"- item\n\n  continued paragraph",
		"Term\n: definition",
		"* * *",
		"+ plus item",
		"3) third",
		"    indented code",
		"- x\n- y\n- z",
		"* star\n* again",
		"7. seven\n8. eight\n9. nine\n10. ten\n11. eleven",
		"1. one\n1. one again\n1. and again",
		"- outer\n  - inner\n- outer two\n  continued",
		"- item with fence\n  ```\n  - not an item\n  ```\n- next",
		"Intro:\n- a\n- b",
		longCode(),
		"```\n" + strings.Repeat("plain line\n", 12) + "`not a fence\n" + strings.Repeat("more\n", 9) + "```",
		"- in a list\n  ```\n" + strings.Repeat("  indented code\n", 20) + "  ```",
		"```go\n" + strings.Repeat("s := `raw\n", 1) + strings.Repeat("string line\n", 10) + "`\n```",
		strings.Repeat("A long paragraph that has to wrap, with `code`, **bold** and a-hyphenated-word. ", 4),
		"- " + strings.Repeat("a long list item that wraps over lines ", 5),
		"```python\ndef f():\n    \"\"\"doc\n    string\"\"\"\n    return 1\n```",
		"```\nno language, guessed\n```",
		"<div>html block</div>",
		"Text\n\n[ref]: https://example.com",
	}
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		for i, n := 0, rapid.IntRange(1, 5).Draw(t, "blocks"); i < n; i++ {
			parts = append(parts, rapid.SampledFrom(blocks).Draw(t, "block"))
		}
		text := strings.Join(parts, "\n\n")
		width := rapid.IntRange(20, 100).Draw(t, "width")
		ss := newSession(t)
		ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": ""}))
		r := New(themes.Dark())
		for rest := text; rest != ""; {
			n := rapid.IntRange(1, len(rest)).Draw(t, "cut")
			ss.delta("a1", "text", rest[:n])
			rest = rest[n:]
			r.Item(ss.item("a1"), width, ItemOptions{})
		}
		got := stripped(r.Item(ss.item("a1"), width, ItemOptions{}))
		want := stripped(New(themes.Dark()).Item(ss.item("a1"), width, ItemOptions{}))
		if got != want {
			t.Fatalf("streamed:\n%s\none shot:\n%s", got, want)
		}
		// Completed, the message reuses its streamed chunks and equals a
		// one-shot render byte for byte, colours included.
		ss.complete(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": text}))
		done := strings.Join(r.Item(ss.item("a1"), width, ItemOptions{}), "\n")
		fresh := strings.Join(New(themes.Dark()).Item(ss.item("a1"), width, ItemOptions{}), "\n")
		if done != fresh {
			t.Fatalf("completed after streaming:\n%q\none shot:\n%q", done, fresh)
		}
	})
}

// TestStreamingCompletionReusesChunks: completing a long streamed message
// renders only what was not rendered yet (its tail, and code blocks that
// streamed in segments), not the whole text, and equals a one-shot render.
func TestStreamingCompletionReusesChunks(t *testing.T) {
	ss := streamParagraphs(t, 200)
	ss.delta("a1", "text", "Last words")
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 90, ItemOptions{Spinner: "⠋"})
	text := ss.item("a1").Text() + " and the end."
	before := r.Stats().MarkdownBytes
	ss.complete(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": text}))
	got := strings.Join(r.Item(ss.item("a1"), 90, ItemOptions{}), "\n")
	if n := r.Stats().MarkdownBytes - before; n > 100 {
		t.Fatalf("completion rendered %d bytes of markdown, want only the tail", n)
	}
	if want := strings.Join(New(themes.Dark()).Item(ss.item("a1"), 90, ItemOptions{}), "\n"); got != want {
		t.Fatalf("completed after streaming differs from one shot:\n%s\nvs\n%s", got, want)
	}
}

func jsonRaw(s string) any { return rawJSON(s) }

// longCode is a Go code block of about 30 lines, with blank lines inside.
func longCode() string {
	var b strings.Builder
	b.WriteString("```go\n")
	for i := range 30 {
		if i%7 == 6 {
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "\tx%d := compute(%d) // step %d\n", i, i, i)
	}
	b.WriteString("```")
	return b.String()
}

// TestStreamingCodeBlockInSegments: a long code block streamed line by
// line re-renders only its open segment on each delta, never the whole
// block, and its lines come out as a one-shot render lays them out.
func TestStreamingCodeBlockInSegments(t *testing.T) {
	ss := newSession(t)
	ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": "Here it is:\n\n```go\n"}))
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 80, ItemOptions{})
	const lineLen = len("\tvalue42 := compute(42, \"label\")\n")
	worst := 0
	const lines = 80
	for i := range lines {
		before := r.Stats().MarkdownBytes
		ss.delta("a1", "text", fmt.Sprintf("\tvalue%02d := compute(%02d, \"label\")\n", i%100, i%100))
		r.Item(ss.item("a1"), 80, ItemOptions{})
		worst = max(worst, r.Stats().MarkdownBytes-before)
	}
	// At most two segments (the one closing and the new tail) and the
	// repeated opening line.
	if limit := 2*(codeSegmentLines+1)*lineLen + 2*len("```go\n"); worst > limit {
		t.Fatalf("one code line rendered %d bytes of markdown, limit %d", worst, limit)
	}
	got := stripped(r.Item(ss.item("a1"), 80, ItemOptions{}))
	want := stripped(New(themes.Dark()).Item(ss.item("a1"), 80, ItemOptions{}))
	if got != want {
		t.Fatalf("segmented code differs from one render:\n%s\nvs\n%s", got, want)
	}
	if n := strings.Count(got, "compute("); n != lines {
		t.Fatalf("%d code lines shown, want %d", n, lines)
	}
	// Completing the block changes nothing but the header.
	ss.complete(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": ss.item("a1").Text() + "```\n"}))
	final := stripped(r.Item(ss.item("a1"), 80, ItemOptions{}))
	_, gotBody, _ := strings.Cut(got, "\n")
	_, finalBody, _ := strings.Cut(final, "\n")
	if gotBody != finalBody {
		t.Fatalf("streamed code differs from the finished message:\n%s\nvs\n%s", gotBody, finalBody)
	}
}

// tailText is a long answer of paragraphs, lists and code blocks (some
// longer than a segment).
func tailText() string {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "## Part %d\n\nA paragraph about part %d with **bold** and `code`, long enough to wrap at a narrow width at least once.\n\n", i, i)
		if i%5 == 0 {
			b.WriteString(longCode() + "\n\n")
		}
		if i%7 == 0 {
			b.WriteString("- one\n- two\n- three\n\n")
		}
	}
	b.WriteString("END OF ANSWER")
	return b.String()
}

// TestItemTailLeavesTheRestCold: a window that follows a long answer
// arriving in big pieces gets the answer's last lines as a full layout
// would show them, while most of the markdown above them is never
// rendered; asking for the whole message then, or completing it, lays it
// out exactly as a one-shot render.
func TestItemTailLeavesTheRestCold(t *testing.T) {
	for _, width := range []int{100, 50} {
		text := tailText()
		ss := newSession(t)
		ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": ""}))
		r := New(themes.Dark())
		const n = 30
		for rest := text; rest != ""; {
			k := min(len(rest), 2500)
			ss.delta("a1", "text", rest[:k])
			rest = rest[k:]
			lines, _ := r.ItemTail(ss.item("a1"), width, ItemOptions{Spinner: "⠋"}, n)
			if len(lines) < n {
				t.Fatalf("ItemTail gave %d lines, want at least %d", len(lines), n)
			}
			full := New(themes.Dark()).Item(ss.item("a1"), width, ItemOptions{Spinner: "⠋"})
			if got, want := stripped(lines[len(lines)-n:]), stripped(full[len(full)-n:]); got != want {
				t.Fatalf("width %d: tail differs from the full layout's:\n%s\nvs\n%s", width, got, want)
			}
		}
		if got := r.Stats().MarkdownBytes; got > len(text)/2 {
			t.Fatalf("width %d: following the stream rendered %d bytes of markdown for a %d-byte answer", width, got, len(text))
		}
		ss.complete(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": text}))
		lines, _ := r.ItemTail(ss.item("a1"), width, ItemOptions{}, n)
		fresh := New(themes.Dark()).Item(ss.item("a1"), width, ItemOptions{})
		if got, want := strings.Join(lines[len(lines)-n:], "\n"), strings.Join(fresh[len(fresh)-n:], "\n"); got != want {
			t.Fatalf("width %d: completed tail differs:\n%q\nvs\n%q", width, got, want)
		}
		if got, want := strings.Join(r.Item(ss.item("a1"), width, ItemOptions{}), "\n"), strings.Join(fresh, "\n"); got != want {
			t.Fatalf("width %d: whole completed message differs from a one-shot render", width)
		}
	}
}
