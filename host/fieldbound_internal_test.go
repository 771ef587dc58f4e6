package host

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// Which strings are whole text: an agent message's text and a reasoning
// item's summary parts, nothing else (tool output is sliced, seed 003).
func TestWholeTextTable(t *testing.T) {
	for _, tc := range []struct {
		kind, path string
		want       bool
	}{
		{model.KindAgentMessage, "text", true},
		{model.KindReasoning, "summary.0", true},
		{model.KindReasoning, "summary.12", true},
		{model.KindAgentMessage, "text.0", false},
		{model.KindAgentMessage, "phase", false},
		{model.KindReasoning, "summary", false},
		{model.KindReasoning, "summary.x", false},
		{model.KindReasoning, "summary.-1", false},
		{model.KindReasoning, "summary.0.text", false},
		{model.KindReasoning, "text", false},
		{model.KindToolCall, "output", false},
		{model.KindToolCall, "inputText", false},
		{model.KindToolCall, "text", false},
		{model.KindUserMessage, "text", false},
		{model.KindError, "message", false},
		{"diffPreview", "text", false},
	} {
		if got := wholeText(tc.kind, tc.path); got != tc.want {
			t.Errorf("wholeText(%q, %q) = %v, want %v", tc.kind, tc.path, got, tc.want)
		}
	}
}

// The bound of each string, and how Options.FieldBound composes with the
// text bound: it replaces the sliced bound and raises, never lowers, the
// text bound.
func TestFieldBoundsTable(t *testing.T) {
	for _, tc := range []struct {
		name       string
		option     int
		kind, path string
		want       int
	}{
		{"an answer, default", 0, model.KindAgentMessage, "text", TextBound},
		{"a summary part, default", 0, model.KindReasoning, "summary.3", TextBound},
		{"tool output, default", 0, model.KindToolCall, "output", FieldBound},
		{"a prompt, default", 0, model.KindUserMessage, "text", FieldBound},
		{"an unknown kind, default", 0, "diffPreview", "text", FieldBound},
		{"lowered: tool output follows", 1000, model.KindToolCall, "output", 1000},
		{"lowered: an answer keeps the text bound", 1000, model.KindAgentMessage, "text", TextBound},
		{"raised below the text bound", 200 << 10, model.KindToolCall, "output", 200 << 10},
		{"raised below the text bound: the answer keeps it", 200 << 10, model.KindAgentMessage, "text", TextBound},
		{"raised past the text bound: the answer follows", 3 << 20, model.KindAgentMessage, "text", 3 << 20},
		{"raised past the text bound: tool output too", 3 << 20, model.KindToolCall, "output", 3 << 20},
	} {
		if got := boundsFor(tc.option).of(tc.kind, tc.path); got != tc.want {
			t.Errorf("%s: boundsFor(%d).of(%q, %q) = %d, want %d", tc.name, tc.option, tc.kind, tc.path, got, tc.want)
		}
	}
}

// A full object keeps an answer whole up to TextBound and names a longer
// one in truncated; tool output is sliced at FieldBound.
func TestApplyBoundsEachStringByItsKind(t *testing.T) {
	answer := strings.Repeat("a", TextBound+100)
	output := strings.Repeat("o", 100<<10)
	for _, tc := range []struct {
		name, kind string
		fields     map[string]any
		path       string
		wantLen    int
		cut        bool
	}{
		{"a 200 KB answer", model.KindAgentMessage, map[string]any{"text": answer[:200_000]}, "text", 200_000, false},
		{"a 1 MiB answer", model.KindAgentMessage, map[string]any{"text": answer[:TextBound]}, "text", TextBound, false},
		{"a longer answer", model.KindAgentMessage, map[string]any{"text": answer}, "text", TextBound, true},
		{"a 200 KB summary part", model.KindReasoning, map[string]any{"summary": []string{"plan", answer[:200_000]}}, "summary.1", 200_000, false},
		{"100 KB of tool output", model.KindToolCall, map[string]any{"output": output}, "output", FieldBound, true},
		{"a 100 KB error message", model.KindError, map[string]any{"message": output}, "message", FieldBound, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := applied(t, tc.kind, tc.fields)
			if got := len(it.String(tc.path)); got != tc.wantLen {
				t.Errorf("%s holds %d bytes, want %d", tc.path, got, tc.wantLen)
			}
			if got := it.Truncated(tc.path); got != tc.cut {
				t.Errorf("truncated(%s) = %v, want %v (truncated: %v)", tc.path, got, tc.cut, it.TruncatedFields())
			}
		})
	}
}

// Text full of control characters (six bytes each as JSON) is cut where
// its JSON reaches textWireBound, so that the item still fits a frame.
func TestApplyCutsWholeTextAtItsWireBound(t *testing.T) {
	it := applied(t, model.KindAgentMessage, map[string]any{"text": strings.Repeat("\x01", TextBound)})
	if !it.Truncated("text") {
		t.Fatal("a megabyte of control characters is not marked truncated")
	}
	if n := len(it.Field("text")); n > textWireBound || n < textWireBound-6 {
		t.Fatalf("the text takes %d bytes of JSON, want just under %d", n, textWireBound)
	}
	if raw := itemRaw(t, model.KindAgentMessage, map[string]any{"text": strings.Repeat("\x01", TextBound)}); len(raw) >= MaxFrameBytes-64<<10 {
		t.Fatalf("the item takes %d bytes, a frame holds %d", len(raw), MaxFrameBytes)
	}
	// The summary parts of one reasoning item share the bound.
	part := strings.Repeat("\x01", 400<<10) // 2.4 MiB of JSON each
	r := applied(t, model.KindReasoning, map[string]any{"summary": []string{part, part}})
	if r.Truncated("summary.0") || !r.Truncated("summary.1") || len(r.Field("summary")) > textWireBound {
		t.Fatalf("truncated %v, summary JSON %d bytes", r.TruncatedFields(), len(r.Field("summary")))
	}
}

func itemRaw(t *testing.T, kind string, fields map[string]any) json.RawMessage {
	t.Helper()
	o := newItemObject("i", kind, "t", model.StatusInProgress, 1)
	o.apply(fields, boundsFor(0))
	return o.raw()
}

func applied(t *testing.T, kind string, fields map[string]any) *model.Item {
	t.Helper()
	it, err := model.DecodeItem(itemRaw(t, kind, fields))
	if err != nil {
		t.Fatal(err)
	}
	return it
}
