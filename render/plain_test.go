package render

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/themes"
)

// TestPlain: the copy/export form of every kind carries the item's
// content without any escape sequence.
func TestPlain(t *testing.T) {
	r := New(themes.Dark())
	want := map[string][]string{
		"user_message":            {"Run the test suite and tell me what failed.\nThen fix the flaky one, please."},
		"agent_message":           {"# Test run", "```go\nfunc TestGap"},
		"reasoning_collapsed":     {"**Planning the test run**\n\nI will run", "**Reading failures**"},
		"tool_failed":             {"bash (failed)", "$ go build ./...", "undefined: foo", "error: exit status 1", "exit 1"},
		"tool_waiting_user":       {"write_file (waitingUser)", `"path": "/tmp/notes.md"`},
		"tool_failed_bad_input":   {`{"command": "ls`, "error: input is not valid JSON"},
		"tool_host_death":         {"[interrupted by host restart]"},
		"tool_terminal_unknown":   {"[ended: unknown — host lost]"},
		"compaction":              {"context compacted"},
		"compaction_failed":       {"compaction failed"},
		"error":                   {"Error: The model provider returned 529"},
		"unknown_kind":            {"webSearch (completed)", "query: bubble tea v2 viewport", `results: [{"title":"Bubble Tea"`},
		"agent_message_streaming": {"First paragraph is done.\n\nSecond one is still stream"},
		"plan_running": {"Plan 2/5 (inProgress)\n- [x] Read the failing test\n- [x] Find the cause\n" +
			"- [ ] Add a regression test for the tokenizer's off-by-one at the end of input (in progress)\n- [ ] Fix the parser\n- [ ] Run the tests\n" +
			"The cause is an off-by-one"},
		"plan_hostile": {"- [ ] rm safe red and a wide 漢字", "- [ ] odd status", "[steps"},
	}
	for _, c := range goldenCases() {
		subs, ok := want[c.name]
		if !ok {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			got := r.Plain(c.item(t))
			if strings.ContainsRune(got, 0x1b) {
				t.Errorf("%s: escape sequence in %q", c.name, got)
			}
			for _, s := range subs {
				if !strings.Contains(got, s) {
					t.Errorf("%s: Plain lacks %q:\n%s", c.name, s, got)
				}
			}
		})
	}
	if r.Plain(nil) != "" {
		t.Error("Plain(nil) not empty")
	}
}

// TestNilAndTinyWidths: a nil item renders nothing; absurd widths still
// give lines within the width.
func TestNilAndTinyWidths(t *testing.T) {
	r := New(themes.Dark())
	if r.Item(nil, 80, ItemOptions{}) != nil {
		t.Fatal("nil item rendered")
	}
	for _, c := range goldenCases() {
		for _, w := range []int{-3, 0, 1, 2, 5, 9} {
			lines := r.Item(c.item(t), w, c.opts)
			if len(lines) == 0 {
				t.Fatalf("%s at %d: no lines", c.name, w)
			}
			checkWidth(t, lines, max(w, 1))
		}
	}
}
