package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/themes"
)

// TestToolHugeSingleLine: a 64 KiB output without a newline shows its end
// (marked as cut) in 8 lines; a 64 KiB input shows its start and says how
// much more there is.
func TestToolHugeSingleLine(t *testing.T) {
	r := New(themes.Dark())
	huge := strings.Repeat("0123456789abcdef", 4096) + "END"
	it := mustItem(t, itemJSON("t1", "toolCall", "running", 2, map[string]any{
		"toolName": "bash", "input": map[string]any{"command": "cat blob", "note": strings.Repeat("n", 70000)}, "output": huge}))
	lines := r.Item(it, 60, ItemOptions{})
	checkWidth(t, lines, 60)
	text := stripped(lines)
	if !strings.Contains(text, "END⏎") {
		t.Fatalf("the end of the output is not shown:\n%s", text)
	}
	if !strings.Contains(text, "│ …") {
		t.Fatalf("the cut output is not marked:\n%s", text)
	}
	if !strings.Contains(text, "more input line") || !strings.Contains(text, "$ cat blob") {
		t.Fatalf("input head or its note missing:\n%s", text)
	}
	if len(lines) > 1+toolInputLines+1+1+toolTailLines+1 {
		t.Fatalf("%d lines for a collapsed card:\n%s", len(lines), text)
	}
	exp := r.Item(it, 60, ItemOptions{Expanded: true})
	if len(exp) < 65536/56 {
		t.Fatalf("expanded card shows only %d lines", len(exp))
	}
}

func TestHeadWrapped(t *testing.T) {
	shown, hidden := headWrapped("a\nb\nc\nd\ne\nf", 10, 4, false)
	if strings.Join(shown, ",") != "a,b,c,d" || hidden != 2 {
		t.Fatalf("got %q hidden %d", shown, hidden)
	}
	shown, hidden = headWrapped("aaaaaaaaaaaaaaaaaaaaaaaaa\nb", 10, 2, false)
	if strings.Join(shown, ",") != "aaaaaaaaaa,aaaaaaaaaa" || hidden != 2 {
		t.Fatalf("got %q hidden %d", shown, hidden)
	}
	shown, hidden = headWrapped("x\ny\n", 10, 4, false)
	if strings.Join(shown, ",") != "x,y" || hidden != 0 {
		t.Fatalf("got %q hidden %d", shown, hidden)
	}
}
