package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

// markdown2KB is about 2 KB of typical agent markdown: headings, prose,
// a list, inline code and a highlighted Go block.
func markdown2KB() string {
	var b strings.Builder
	for b.Len() < 2048 {
		b.WriteString(sampleMarkdown)
		b.WriteString("\n")
	}
	return b.String()[:2048]
}

func benchAgent(b *testing.B, text string) *model.Item {
	it, err := model.DecodeItem([]byte(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{"text": text})))
	if err != nil {
		b.Fatal(err)
	}
	return it
}

// benchCold renders an agent message holding text at width again and
// again, each time after the item cache forgot it (the glamour renderer
// for the width already exists).
func benchCold(b *testing.B, text string, width int) {
	r := New(themes.Dark())
	it := benchAgent(b, text)
	r.Item(it, width, ItemOptions{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.Forget(it.ID)
		r.Item(it, width, ItemOptions{})
	}
}

// BenchmarkMarkdown2KBCold renders a finished 2 KB message that is not in
// the item cache (the glamour renderer for the width already exists).
func BenchmarkMarkdown2KBCold(b *testing.B) {
	benchCold(b, markdown2KB(), 100)
}

// BenchmarkMarkdown2KBColdNewRenderer also pays for creating the Renderer
// and its glamour TermRenderer.
func BenchmarkMarkdown2KBColdNewRenderer(b *testing.B) {
	it := benchAgent(b, markdown2KB())
	th := themes.Dark()
	b.ReportAllocs()
	for b.Loop() {
		New(th).Item(it, 100, ItemOptions{})
	}
}

// BenchmarkMarkdown2KBWarm asks again for a message already rendered at
// this width: a cache hit.
func BenchmarkMarkdown2KBWarm(b *testing.B) {
	r := New(themes.Dark())
	it := benchAgent(b, markdown2KB())
	r.Item(it, 100, ItemOptions{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.Item(it, 100, ItemOptions{})
	}
}

// streamingSetup streams a message with a long stable prefix (200
// paragraphs, about 25 KB) and an open last paragraph.
func streamingSetup(b *testing.B) (*session, *Renderer) {
	ss := streamParagraphs(b, 200)
	ss.delta("a1", "text", "The last paragraph is")
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 100, ItemOptions{Spinner: "⠋"})
	return ss, r
}

// BenchmarkStreamingDelta folds one delta into a message with a long
// stable prefix and renders it: only the tail is rendered again. Every
// 40th delta ends the paragraph, so the stable boundary moves as in a
// real stream.
func BenchmarkStreamingDelta(b *testing.B) {
	ss, r := streamingSetup(b)
	prefix := len(ss.item("a1").Text())
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		d := " word"
		if i++; i%40 == 0 {
			d = ".\n\nAnother paragraph"
		}
		ss.delta("a1", "text", d)
		r.Item(ss.item("a1"), 100, ItemOptions{Spinner: "⠋"})
	}
	b.ReportMetric(float64(prefix), "prefix-bytes")
}

// BenchmarkStreamingDeltaNoSplit is the same stream rendered whole on
// every delta, for comparison: what the stable-prefix split saves.
func BenchmarkStreamingDeltaNoSplit(b *testing.B) {
	ss, r := streamingSetup(b)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		d := " word"
		if i++; i%40 == 0 {
			d = ".\n\nAnother paragraph"
		}
		ss.delta("a1", "text", d)
		r.markdown(ss.item("a1").Text(), 98)
	}
}

// BenchmarkToolOutputDelta appends a line to a running tool call holding
// about 60 KB of output and renders its card (the tail only).
func BenchmarkToolOutputDelta(b *testing.B) {
	ss := newSession(b)
	ss.start(itemJSON("t1", "toolCall", "running", 1, map[string]any{"toolName": "bash", "input": map[string]any{"command": "go test ./..."}, "output": longOutput(1200)}))
	r := New(themes.Dark())
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		ss.delta("t1", "output", fmt.Sprintf("line %d\n", i))
		r.Item(ss.item("t1"), 100, ItemOptions{Spinner: "⠋"})
	}
}

// BenchmarkWindowCacheHit asks for the lines of a 50-row window of
// finished items of every kind, all cached: the per-frame cost of rows
// that did not change.
func BenchmarkWindowCacheHit(b *testing.B) {
	r := New(themes.Dark())
	var items []*model.Item
	cases := goldenCases()
	for i := 0; i < 50; i++ {
		c := cases[i%len(cases)]
		it := c.item(b)
		it.ID = fmt.Sprintf("w%d", i)
		items = append(items, it)
		r.Item(it, 100, c.opts)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, it := range items {
			r.Item(it, 100, cases[i%len(cases)].opts)
		}
	}
}

// BenchmarkStreamingListDelta streams a tight numbered list (no blank
// lines) that already has 1,000 items: each delta adds words to the last
// item or starts the next one, so only the open item is rendered again.
func BenchmarkStreamingListDelta(b *testing.B) {
	ss := newSession(b)
	ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": ""}))
	var sb strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&sb, "%d. step %d of many\n", i, i)
	}
	ss.delta("a1", "text", sb.String()+"1001. step")
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 100, ItemOptions{Spinner: "⠋"})
	b.ReportAllocs()
	b.ResetTimer()
	item, i := 1001, 0
	for b.Loop() {
		d := " more"
		if i++; i%5 == 0 {
			item++
			d = fmt.Sprintf("\n%d. step", item)
		}
		ss.delta("a1", "text", d)
		r.Item(ss.item("a1"), 100, ItemOptions{Spinner: "⠋"})
	}
}

// BenchmarkStreamingCodeDelta adds one line to an open Go code block that
// already has 200 lines: only the open segment is highlighted again.
func BenchmarkStreamingCodeDelta(b *testing.B) {
	ss := newSession(b)
	var sb strings.Builder
	sb.WriteString("Here it is:\n\n```go\n")
	for i := range 200 {
		fmt.Fprintf(&sb, "\tvalue%d := compute(%d, \"label\")\n", i, i)
	}
	ss.start(itemJSON("a1", "agentMessage", "inProgress", 1, map[string]any{"text": sb.String()}))
	r := New(themes.Dark())
	r.Item(ss.item("a1"), 100, ItemOptions{Spinner: "⠋"})
	b.ReportAllocs()
	b.ResetTimer()
	i := 200
	for b.Loop() {
		i++
		ss.delta("a1", "text", fmt.Sprintf("\tvalue%d := compute(%d, \"label\")\n", i, i))
		r.Item(ss.item("a1"), 100, ItemOptions{Spinner: "⠋"})
	}
}

// BenchmarkLongmdCold renders the 200 KB benchmark answer
// (shared/bench/longmd.md) whole, not from the item cache: a long message
// scrolled back to, or one that finished before it was seen streaming.
func BenchmarkLongmdCold(b *testing.B) {
	benchCold(b, benchtext.Longmd(b), 120)
}

// BenchmarkBareCodeBlockCold renders a message holding a code block
// without a language (chroma guesses one from the code).
func BenchmarkBareCodeBlockCold(b *testing.B) {
	benchCold(b, "Output:\n\n```\nok  \tgithub.com/lookout-sh/lookout/render\t2.1s\nPASS\n```\n", 100)
}
