package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/themes"
)

func TestMarkdownExportsAFileChangeAsAPatch(t *testing.T) {
	st := model.NewState("S")
	item := map[string]any{"itemId": "F", "kind": "fileChange", "turnId": "T", "revision": 2, "status": "failed",
		"recordedAt": "2026-11-30T00:00:00Z", "position": 1, "error": "the user declined this change",
		"changes": []any{
			map[string]any{"path": "main.go", "kind": "update", "diff": "@@ -1 +1 @@\n-\told\n+\tnew\n"},
			map[string]any{"path": "new.txt", "kind": "add", "diff": "@@ -0,0 +1,1 @@\n+hi\x1b[2J\n"},
			map[string]any{"path": "a.md", "kind": "update", "movePath": "b.md", "diff": ""},
		}}
	params, _ := json.Marshal(map[string]any{"sessionId": "S", "viewCursor": "v:S:1", "prevCursor": nil, "item": item})
	ev, err := model.DecodeNotification(model.MethodItemCompleted, params)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply(ev); err != nil {
		t.Fatal(err)
	}
	md := MarkdownTranscript(st.View())
	for _, want := range []string{
		"## File changes (failed)",
		"```diff\n--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-\told\n+\tnew\n```",
		"--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hi␛[2J\n```",
		"--- a/a.md\n+++ b/b.md\n```",
		"Error: the user declined this change",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
	if strings.ContainsRune(md, 0x1b) {
		t.Error("an escape reached the export raw")
	}
}

// An answer the host cut at its field bound says so where it ends, on
// screen, in the plain text and in the markdown export (it ended
// mid-word with no word before).
func TestHostCutAnswerSaysSoWhereItEnds(t *testing.T) {
	st := model.NewState("S")
	item := map[string]any{"itemId": "A", "kind": "agentMessage", "turnId": "T", "revision": 2, "status": "completed",
		"recordedAt": "2026-11-30T00:00:00Z", "position": 1, "text": "the answer goes on and o", "truncated": []any{"text"}}
	params, _ := json.Marshal(map[string]any{"sessionId": "S", "viewCursor": "v:S:1", "prevCursor": nil, "item": item})
	ev, err := model.DecodeNotification(model.MethodItemCompleted, params)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply(ev); err != nil {
		t.Fatal(err)
	}
	it := st.Item("A")
	md := MarkdownItem(it)
	if !strings.Contains(md, "and o\n\n[text truncated by host: the host kept only its first bytes") {
		t.Errorf("the export does not say the answer was cut where it ends:\n%s", md)
	}
	screen := strings.Join(New(themes.Dark()).Item(it, 80, ItemOptions{}), "\n")
	if !strings.Contains(screen, "⚠ text truncated by host") {
		t.Errorf("the screen does not say the answer was cut:\n%s", screen)
	}
}

// The export's head says what the session cost, where the agent says.
func TestMarkdownHeadCarriesTheCost(t *testing.T) {
	got := MarkdownHead("S", json.RawMessage(`"Fix the test"`), json.RawMessage(`1.234`))
	if got != "# Fix the test\n\n_Cost: $1.23 (as the agent reports it)_\n" {
		t.Fatalf("head %q", got)
	}
	if got := MarkdownHead("S", nil, nil); got != "# Session S\n" {
		t.Fatalf("head without a cost %q", got)
	}
}

// TestMarkdownKeepsToolInputReadable: a tool input encoded by
// encoding/json (HTML-escaped, as the demo agent did) exports as the
// characters it means, not \u003e and \u0026 (issue 25, 3).
func TestMarkdownKeepsToolInputReadable(t *testing.T) {
	st := model.NewState("S")
	input := map[string]any{"command": "go test ./... > out.txt && echo <done>", "cwd": "."}
	inputText, _ := json.Marshal(input) // escapes <, > and &
	tool := map[string]any{"itemId": "F", "kind": "toolCall", "turnId": "T", "revision": 2, "status": "completed",
		"recordedAt": "2026-11-30T00:00:00Z", "position": 1, "toolName": "shell", "inputText": string(inputText),
		"input": input, "output": "ok"}
	unknown := map[string]any{"itemId": "U", "kind": "futureKind", "turnId": "T", "revision": 1, "status": "completed",
		"recordedAt": "2026-11-30T00:00:00Z", "position": 2, "note": "a > b"}
	for _, e := range []struct {
		cursor string
		prev   any
		item   map[string]any
	}{{"v:S:1", nil, tool}, {"v:S:2", "v:S:1", unknown}} {
		params, _ := json.Marshal(map[string]any{"sessionId": "S", "viewCursor": e.cursor, "prevCursor": e.prev, "item": e.item})
		ev, err := model.DecodeNotification(model.MethodItemCompleted, params)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	md := MarkdownTranscript(st.View())
	for _, want := range []string{
		`{"command":"go test ./... > out.txt && echo <done>","cwd":"."}`,
		`"note":"a > b"`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %s:\n%s", want, md)
		}
	}
	if strings.Contains(md, `\u00`) {
		t.Errorf("export holds a JSON escape:\n%s", md)
	}
	if got := plainText(st.View().Items[0]); !strings.Contains(got, `{"cwd":"."}`) || strings.Contains(got, `\u00`) {
		t.Errorf("plain text %q", got)
	}
}

// A plan exports as a markdown task list, and whole (every step with its
// status) in the canonical JSON the json export writes.
func TestPlanExports(t *testing.T) {
	st := model.NewState("S")
	item := map[string]any{"itemId": "P", "kind": "plan", "turnId": "T", "revision": 3, "status": "stopped",
		"recordedAt": "2026-11-30T00:00:00Z", "position": 1, "explanation": "tests first\x1b[2J", // an escape never reaches the export
		"steps": []any{
			map[string]any{"text": "Read the code", "status": "completed"},
			map[string]any{"text": "Fix the bug", "status": "inProgress", "activeText": "Fixing the bug"},
			map[string]any{"text": "Run the tests", "status": "pending"},
		}}
	params, _ := json.Marshal(map[string]any{"sessionId": "S", "viewCursor": "v:S:1", "prevCursor": nil, "item": item})
	ev, err := model.DecodeNotification(model.MethodItemCompleted, params)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply(ev); err != nil {
		t.Fatal(err)
	}
	md := MarkdownTranscript(st.View())
	want := "## Plan (1/3) (stopped)\n\n- [x] Read the code\n- [ ] Fix the bug (in progress)\n- [ ] Run the tests\n\ntests first\n"
	if !strings.Contains(md, want) {
		t.Errorf("markdown export lacks %q:\n%s", want, md)
	}
	var enc struct {
		Items []struct {
			Kind  string           `json:"kind"`
			Steps []model.PlanStep `json:"steps"`
		} `json:"items"`
	}
	if err := json.Unmarshal(st.Encode(), &enc); err != nil {
		t.Fatal(err)
	}
	if len(enc.Items) != 1 || enc.Items[0].Kind != "plan" || len(enc.Items[0].Steps) != 3 ||
		enc.Items[0].Steps[1] != (model.PlanStep{Text: "Fix the bug", Status: model.StepInProgress, ActiveText: "Fixing the bug"}) {
		t.Errorf("json export: %s", st.Encode())
	}
}
