package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// tb is what the helpers need of a *testing.T, *testing.B or *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// mustItem decodes an item object for a test.
func mustItem(t tb, js string) *model.Item {
	t.Helper()
	it, err := model.DecodeItem([]byte(js))
	if err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return it
}

// itemJSON builds an item object from common fields and extra members.
func itemJSON(id, kind, status string, rev int, extra map[string]any) string {
	m := map[string]any{"itemId": id, "kind": kind, "turnId": "t1", "revision": rev,
		"status": status, "recordedAt": "2026-11-29T12:00:00Z", "position": 3}
	for k, v := range extra {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// session drives a real model.State with wire frames, so tests see items
// exactly as the fold produces them (Version, Final, deltas).
type session struct {
	t       tb
	s       *model.State
	seq     int64
	durable int64
}

func newSession(t tb) *session { return &session{t: t, s: model.NewState("s1")} }

func (ss *session) send(method string, params map[string]any) {
	ss.t.Helper()
	ss.seq++
	params["sessionId"] = "s1"
	params["viewCursor"] = model.FormatCursor("s1", ss.seq)
	if d, _ := model.IsDurable(method); d {
		if ss.durable == 0 {
			params["prevCursor"] = nil
		} else {
			params["prevCursor"] = model.FormatCursor("s1", ss.durable)
		}
		ss.durable = ss.seq
	}
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		ss.t.Fatal(err)
	}
	ev, err := model.DecodeFrame(raw)
	if err != nil {
		ss.t.Fatalf("decode %s: %v", raw, err)
	}
	if err := ss.s.Apply(ev); err != nil {
		ss.t.Fatalf("apply %s: %v", raw, err)
	}
}

func (ss *session) start(js string) {
	ss.t.Helper()
	ss.send(model.MethodItemStarted, map[string]any{"item": json.RawMessage(js)})
}

func (ss *session) complete(js string) {
	ss.t.Helper()
	ss.send(model.MethodItemCompleted, map[string]any{"item": json.RawMessage(js)})
}

func (ss *session) delta(id, field, d string) {
	ss.t.Helper()
	ss.send(model.MethodItemDelta, map[string]any{"itemId": id, "field": field, "delta": d})
}

func (ss *session) item(id string) *model.Item { return ss.s.Item(id) }

// sampleMarkdown is an agent reply with most block kinds.
const sampleMarkdown = "# Test run\n\nAll **214** tests pass except `two`; see [the log](https://example.com/log).\n\n" +
	"## Failures\n\n1. `TestResume` timed out\n2. `TestGap` saw seq 7 twice\n\n" +
	"```go\nfunc TestGap(t *testing.T) {\n\tif got != want {\n\t\tt.Fatalf(\"seq %d\", got)\n\t}\n}\n```\n\n" +
	"> The host restarted mid-run.\n\n- retry with `-count=1`\n- check the journal\n"

// longOutput is numbered tool output lines.
func longOutput(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "ok  \tgithub.com/lookout-sh/lookout/pkg%02d\t0.%03ds\n", i, i*7)
	}
	return b.String()
}

// goldenCase is one row of the per-kind golden table.
type goldenCase struct {
	name string
	item func(t testing.TB) *model.Item
	opts ItemOptions
}

func fromJSON(js string) func(t testing.TB) *model.Item {
	return func(t testing.TB) *model.Item { return mustItem(t, js) }
}

func goldenCases() []goldenCase {
	tu := func(js string) func(t testing.TB) *model.Item {
		return func(t testing.TB) *model.Item {
			it := mustItem(t, js)
			it.TerminalUnknown = true
			return it
		}
	}
	cut := func(c model.ItemCut, js string) func(t testing.TB) *model.Item {
		return func(t testing.TB) *model.Item {
			it := mustItem(t, js)
			it.Cut = &c
			return it
		}
	}
	return []goldenCase{
		{name: "user_message", item: fromJSON(itemJSON("u1", "userMessage", "completed", 1, map[string]any{
			"commandId": "c1", "text": "Run the test suite and tell me what failed.\nThen fix the flaky one, please."}))},
		{name: "user_message_selected", opts: ItemOptions{Selected: true}, item: fromJSON(itemJSON("u2", "userMessage", "completed", 1, map[string]any{
			"text": "short prompt"}))},
		{name: "user_message_hostile", item: fromJSON(itemJSON("u3", "userMessage", "completed", 1, map[string]any{
			"text": "tabs\there\x1b[31m red?\x1b[0m\r\nprogress 10%\rprogress 100%\n\x07bell and a wide 漢字 and emoji 🚀 " +
				strings.Repeat("x", 90)}))},
		{name: "agent_message", item: fromJSON(itemJSON("a1", "agentMessage", "completed", 2, map[string]any{
			"text": sampleMarkdown}))},
		{name: "agent_message_streaming", opts: ItemOptions{Spinner: "⠋"}, item: fromJSON(itemJSON("a2", "agentMessage", "inProgress", 1, map[string]any{
			"text": "First paragraph is done.\n\nSecond one is still stream"}))},
		{name: "agent_message_stopped", item: fromJSON(itemJSON("a3", "agentMessage", "stopped", 2, map[string]any{
			"text": "I was about to"}))},
		{name: "agent_message_terminal_unknown", item: tu(itemJSON("a4", "agentMessage", "inProgress", 1, map[string]any{
			"text": "Half an ans"}))},
		{name: "agent_message_cut_by_client", opts: ItemOptions{Spinner: "⠋"}, item: cut(model.ItemCut{Fields: []string{"text"}, FieldBound: 1 << 20},
			itemJSON("a5", "agentMessage", "inProgress", 1, map[string]any{"text": "The host kept streaming past any bound"}))},
		{name: "reasoning_collapsed", item: fromJSON(itemJSON("r1", "reasoning", "completed", 2, map[string]any{
			"summary": []string{"**Planning the test run**\n\nI will run the whole suite first, then the flaky one alone.", "**Reading failures**\n\nTwo tests fail."}}))},
		{name: "reasoning_expanded", opts: ItemOptions{Expanded: true}, item: fromJSON(itemJSON("r1", "reasoning", "completed", 2, map[string]any{
			"summary": []string{"**Planning the test run**\n\nI will run the whole suite first, then the flaky one alone.", "**Reading failures**\n\nTwo tests fail."}}))},
		{name: "reasoning_streaming", opts: ItemOptions{Spinner: "⠙"}, item: fromJSON(itemJSON("r2", "reasoning", "inProgress", 1, map[string]any{}))},
		{name: "tool_input_streaming", opts: ItemOptions{Spinner: "⠹"}, item: fromJSON(itemJSON("t1", "toolCall", "inputStreaming", 1, map[string]any{
			"toolName": "bash", "inputText": `{"command": "go test ./...`}))},
		{name: "tool_ready", item: fromJSON(itemJSON("t2", "toolCall", "ready", 2, map[string]any{
			"toolName": "bash", "inputText": `{"command":"go vet ./..."}`, "input": map[string]any{"command": "go vet ./..."}}))},
		{name: "tool_waiting_user", item: fromJSON(itemJSON("t3", "toolCall", "waitingUser", 3, map[string]any{
			"toolName": "write_file", "input": map[string]any{"path": "/tmp/notes.md", "content": "# Notes\n\nremember the journal"}}))},
		{name: "tool_running", opts: ItemOptions{Spinner: "⠸"}, item: fromJSON(itemJSON("t4", "toolCall", "running", 4, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "go test ./..."}, "output": longOutput(20)}))},
		{name: "file_change_proposed", opts: ItemOptions{Spinner: "⠋"}, item: fromJSON(itemJSON("f1", "fileChange", "inProgress", 1, map[string]any{
			"changes": []any{map[string]any{"path": "/src/app/notes.txt", "kind": "add", "diff": "@@ -0,0 +1,2 @@\n+hello\n+\tindented\n"}}}))},
		{name: "file_change_applied", item: fromJSON(itemJSON("f2", "fileChange", "completed", 2, map[string]any{
			"changes": []any{
				map[string]any{"path": "main.go", "kind": "update", "diff": "@@ -1,4 +1,4 @@\n package main\n-import \"fmt\"\n+import \"log\"\n \n" + longDiff(14)},
				map[string]any{"path": "old.md", "kind": "update", "movePath": "docs/new.md", "diff": ""},
				map[string]any{"path": "gone.txt", "kind": "delete", "diff": "@@ -1,1 +0,0 @@\n-bye\n"}}}))},
		{name: "file_change_applied_expanded", opts: ItemOptions{Expanded: true}, item: fromJSON(itemJSON("f2", "fileChange", "completed", 2, map[string]any{
			"changes": []any{map[string]any{"path": "main.go", "kind": "update", "diff": "@@ -1,4 +1,4 @@\n package main\n-import \"fmt\"\n+import \"log\"\n \n" + longDiff(14)}}}))},
		{name: "file_change_declined", item: fromJSON(itemJSON("f3", "fileChange", "failed", 2, map[string]any{
			"error":   "the user declined this change",
			"changes": []any{map[string]any{"path": "rm\rsafe.txt", "kind": "add", "diff": "@@ -0,0 +1,1 @@\n+x\x1b]52;c;cm0gLXJmIH4=\x07\n"}}}))},
		{name: "tool_completed", item: fromJSON(itemJSON("t5", "toolCall", "completed", 5, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "ls"}, "output": "go.mod\ngo.sum\nmain.go\n", "exitCode": 0}))},
		{name: "tool_completed_expanded", opts: ItemOptions{Expanded: true}, item: fromJSON(itemJSON("t6", "toolCall", "completed", 5, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "go test ./..."}, "output": longOutput(12), "exitCode": 0}))},
		{name: "tool_failed", item: fromJSON(itemJSON("t7", "toolCall", "failed", 5, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "go build ./..."}, "output": "main.go:3:2: undefined: foo\n", "exitCode": 1, "error": "exit status 1"}))},
		{name: "tool_failed_bad_input", item: fromJSON(itemJSON("t8", "toolCall", "failed", 2, map[string]any{
			"toolName": "bash", "inputText": `{"command": "ls`, "error": map[string]any{"code": "invalidInput", "message": "input is not valid JSON"}}))},
		{name: "tool_truncated", item: fromJSON(itemJSON("t9", "toolCall", "completed", 5, map[string]any{
			"toolName": "cat", "input": map[string]any{"path": "big.log"}, "output": longOutput(10), "exitCode": 0, "truncated": []string{"output"}}))},
		{name: "tool_host_death", item: fromJSON(itemJSON("t10", "toolCall", "failed", 5, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "sleep 100"}, "endedBy": "hostDeath"}))},
		{name: "tool_terminal_unknown", item: tu(itemJSON("t11", "toolCall", "running", 4, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "make"}, "output": "building...\n"}))},
		{name: "tool_cut_by_client", item: cut(model.ItemCut{Fields: []string{"output"}, FieldBound: 1 << 20, ItemBound: 8 << 20},
			itemJSON("t13", "toolCall", "completed", 5, map[string]any{"toolName": "cat", "input": map[string]any{"path": "/dev/urandom"}, "output": "endless\n", "exitCode": 0}))},
		{name: "tool_stopped", item: fromJSON(itemJSON("t12", "toolCall", "stopped", 5, map[string]any{
			"toolName": "bash", "input": map[string]any{"command": "yes"}, "output": "y\ny\ny\n"}))},
		{name: "plan_running", opts: ItemOptions{Spinner: "⠋"}, item: fromJSON(itemJSON("p1", "plan", "inProgress", 3, map[string]any{
			"explanation": "The cause is an off-by-one in the tokenizer: a regression test comes first.",
			"steps":       planSteps()}))},
		{name: "plan_done", item: fromJSON(itemJSON("p2", "plan", "completed", 4, map[string]any{
			"steps": []any{map[string]any{"text": "Read the code", "status": "completed"}, map[string]any{"text": "Fix the bug", "status": "completed"}}}))},
		{name: "plan_stopped", item: fromJSON(itemJSON("p3", "plan", "stopped", 4, map[string]any{"steps": planSteps()}))},
		{name: "plan_hostile", item: fromJSON(itemJSON("p4", "plan", "inProgress", 2, map[string]any{
			"steps": []any{map[string]any{"text": "rm\rsafe \x1b[31mred\x1b[0m and a wide 漢字 " + strings.Repeat("y", 70), "status": "pending"}, 7,
				map[string]any{"text": "odd status", "status": "blocked"}},
			"truncated": []string{"steps"}}))},
		{name: "compaction", item: fromJSON(itemJSON("k1", "contextCompaction", "completed", 2, nil))},
		{name: "compaction_failed", item: fromJSON(itemJSON("k2", "contextCompaction", "failed", 2, nil))},
		{name: "compaction_running", opts: ItemOptions{Spinner: "⠼"}, item: fromJSON(itemJSON("k3", "contextCompaction", "inProgress", 1, nil))},
		{name: "error", item: fromJSON(itemJSON("e1", "error", "completed", 1, map[string]any{
			"message": "The model provider returned 529 (overloaded) three times; the turn was abandoned."}))},
		{name: "unknown_kind", item: fromJSON(itemJSON("x1", "webSearch", "completed", 3, map[string]any{
			"query": "bubble tea v2 viewport", "results": []any{map[string]any{"title": "Bubble Tea", "url": "https://github.com/charmbracelet/bubbletea"}},
			"note": strings.Repeat("a long value that keeps going ", 12)}))},
		{name: "unknown_kind_expanded", opts: ItemOptions{Expanded: true}, item: fromJSON(itemJSON("x1", "webSearch", "completed", 3, map[string]any{
			"query": "bubble tea v2 viewport", "note": strings.Repeat("a long value that keeps going ", 12)}))},
	}
}

type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// longDiff is n context-and-change lines of a unified diff hunk.
func longDiff(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -10,%d +10,%d @@\n", n, n)
	for i := range n {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "-\told line %d\n", i)
		case 1:
			fmt.Fprintf(&b, "+\tnew line %d\n", i)
		default:
			fmt.Fprintf(&b, " \tcontext %d\n", i)
		}
	}
	return b.String()
}

// planSteps are a plan's five steps, two done and one in progress.
func planSteps() []any {
	return []any{
		map[string]any{"text": "Read the failing test", "status": "completed"},
		map[string]any{"text": "Find the cause", "status": "completed"},
		map[string]any{"text": "Add a regression test for the tokenizer's off-by-one at the end of input", "status": "inProgress", "activeText": "Adding a regression test for the tokenizer's off-by-one at the end of input"},
		map[string]any{"text": "Fix the parser", "status": "pending"},
		map[string]any{"text": "Run the tests", "status": "pending"},
	}
}
