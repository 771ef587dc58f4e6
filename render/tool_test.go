package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/termtext/termtexttest"
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
	shown, hidden := headWrapped("a\nb\nc\nd\ne\nf", 10, 4, false, termtext.Text)
	if strings.Join(shown, ",") != "a,b,c,d" || hidden != 2 {
		t.Fatalf("got %q hidden %d", shown, hidden)
	}
	shown, hidden = headWrapped("aaaaaaaaaaaaaaaaaaaaaaaaa\nb", 10, 2, false, termtext.Text)
	if strings.Join(shown, ",") != "aaaaaaaaaa,aaaaaaaaaa" || hidden != 2 {
		t.Fatalf("got %q hidden %d", shown, hidden)
	}
	shown, hidden = headWrapped("x\ny\n", 10, 4, false, termtext.Text)
	if strings.Join(shown, ",") != "x,y" || hidden != 0 {
		t.Fatalf("got %q hidden %d", shown, hidden)
	}
}

// TestToolInputShowsEveryCharacter: a tool's name and input are what the
// user approves, so a bare CR or an escape sequence in them is shown, not
// obeyed: "rm -rf ~\rls" shows all of "rm -rf ~␍ls", whether the input is
// parsed, streaming text, or shown expanded. The output keeps the
// progress-bar meaning of a bare CR.
func TestToolInputShowsEveryCharacter(t *testing.T) {
	r := New(themes.Dark())
	cmd := "rm -rf ~\rls"
	items := map[string]string{
		"parsed input": itemJSON("t1", "toolCall", "waitingUser", 1, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": cmd}}),
		"parsed input, more members": itemJSON("t2", "toolCall", "waitingUser", 1, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": cmd, "cwd": "/"}}),
		"input text": itemJSON("t3", "toolCall", "waitingUser", 1, map[string]any{
			"toolName": "bash", "inputText": cmd}),
		"streaming input": itemJSON("t4", "toolCall", "inputStreaming", 1, map[string]any{
			"toolName": "bash", "inputText": cmd}),
		"JSON input": itemJSON("t5", "toolCall", "waitingUser", 1, map[string]any{
			"toolName": "write", "input": map[string]any{"path": "a\u009bb", "text": "x"}}),
	}
	for name, js := range items {
		for _, o := range []ItemOptions{{}, {Expanded: true}} {
			text := stripped(r.Item(mustItem(t, js), 60, o))
			want := "rm -rf ~␍ls"
			if name == "JSON input" {
				want = "a<U+009B>b"
			}
			if !strings.Contains(text, want) {
				t.Errorf("%s (expanded %v): %q not shown:\n%s", name, o.Expanded, want, text)
			}
		}
	}
	named := mustItem(t, itemJSON("t6", "toolCall", "waitingUser", 1, map[string]any{
		"toolName": "bash\rsafe\x1b]0;x\x07", "input": map[string]any{"command": "ls"}}))
	if text := stripped(r.Item(named, 60, ItemOptions{})); !strings.Contains(text, "bash␍safe␛]0;x␇") {
		t.Errorf("tool name not shown whole:\n%s", text)
	}
	out := mustItem(t, itemJSON("t7", "toolCall", "completed", 1, map[string]any{
		"toolName": "bash", "input": map[string]any{"command": "make"}, "output": "10%\r50%\r100%\ndone\n", "exitCode": 0}))
	if text := stripped(r.Item(out, 60, ItemOptions{})); !strings.Contains(text, "│ 100%⏎") || strings.Contains(text, "50%") {
		t.Errorf("output lost its progress-bar CR:\n%s", text)
	}
}

// TestHostileToolCard: every hostile input as a tool's name, input and
// output comes out with no sequence but the renderer's own styling.
func TestHostileToolCard(t *testing.T) {
	r := New(themes.Dark())
	cases := termtexttest.Cases()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			for _, status := range []string{"waitingUser", "inputStreaming", "failed"} {
				it := mustItem(t, itemJSON("h", "toolCall", status, 1, map[string]any{
					"toolName": c.In, "inputText": c.In, "input": map[string]any{"command": c.In},
					"output": c.In, "error": map[string]any{"message": c.In}}))
				for _, o := range []ItemOptions{{}, {Expanded: true}} {
					for _, l := range r.Item(it, 70, o) {
						if err := termtexttest.CheckStyled(l, cases); err != nil {
							t.Errorf("%s, %s: %v", c.Name, status, err)
						}
					}
				}
				r.Forget("h")
			}
		})
	}
}
