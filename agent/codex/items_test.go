package codex

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestUnifiedDiff(t *testing.T) {
	cases := []struct {
		name, kind, diff, want string
	}{
		{"add", "add", "one\ntwo\n", "@@ -0,0 +1,2 @@\n+one\n+two\n"},
		{"add without final newline", "add", "one", "@@ -0,0 +1 @@\n+one\n\\ No newline at end of file\n"},
		{"delete", "delete", "gone\n", "@@ -1 +0,0 @@\n-gone\n"},
		{"update is unified already", "update", "@@ -1 +1 @@\n-a\n+b\n", "@@ -1 +1 @@\n-a\n+b\n"},
		{"empty add", "add", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := unifiedDiff(c.kind, c.diff); got != c.want {
				t.Errorf("unifiedDiff(%q, %q) = %q, want %q", c.kind, c.diff, got, c.want)
			}
		})
	}
}

func TestPlanStartAndComplete(t *testing.T) {
	exit := func(n int) *int { return &n }
	out := "made\n"
	cases := []struct {
		name       string
		item       codexItem
		complete   bool
		wantSkip   bool
		wantKind   string
		wantStatus string
		wantFields map[string]any
	}{
		{name: "the user's message is the host's", item: codexItem{Type: "userMessage", ID: "u"}, wantSkip: true},
		{name: "agent message opens empty", item: codexItem{Type: "agentMessage", ID: "m"},
			wantKind: model.KindAgentMessage, wantStatus: model.StatusInProgress, wantFields: map[string]any{"text": ""}},
		{name: "reasoning opens with no summary", item: codexItem{Type: "reasoning", ID: "r"},
			wantKind: model.KindReasoning, wantStatus: model.StatusInProgress, wantFields: map[string]any{"summary": []string{}}},
		{name: "a command is a ready shell tool", item: codexItem{Type: "commandExecution", ID: "c", Command: "ls", Cwd: "/w"},
			wantKind: model.KindToolCall, wantStatus: model.StatusReady, wantFields: map[string]any{
				"toolName": "shell", "input": map[string]any{"command": "ls", "cwd": "/w"}, "inputText": `{"command":"ls","cwd":"/w"}`}},
		{name: "a finished command carries output and exit code",
			item:     codexItem{Type: "commandExecution", ID: "c", Command: "ls", Status: "completed", AggregatedOutput: &out, ExitCode: exit(0)},
			complete: true, wantKind: model.KindToolCall, wantStatus: model.StatusCompleted, wantFields: map[string]any{
				"toolName": "shell", "input": map[string]any{"command": "ls"}, "inputText": `{"command":"ls"}`, "output": "made\n", "exitCode": 0}},
		{name: "a failed command says its status",
			item:     codexItem{Type: "commandExecution", ID: "c", Command: "false", Status: "failed", ExitCode: exit(1)},
			complete: true, wantKind: model.KindToolCall, wantStatus: model.StatusFailed, wantFields: map[string]any{
				"toolName": "shell", "input": map[string]any{"command": "false"}, "inputText": `{"command":"false"}`, "exitCode": 1,
				"error": "the command exited with status 1"}},
		{name: "a declined command fails",
			item:     codexItem{Type: "commandExecution", ID: "c", Command: "rm x", Status: "declined"},
			complete: true, wantKind: model.KindToolCall, wantStatus: model.StatusFailed, wantFields: map[string]any{
				"toolName": "shell", "input": map[string]any{"command": "rm x"}, "inputText": `{"command":"rm x"}`,
				"error": "the user declined this command"}},
		{name: "a declined file change fails",
			item:     codexItem{Type: "fileChange", ID: "f", Status: "declined"},
			complete: true, wantKind: model.KindFileChange, wantStatus: model.StatusFailed, wantFields: map[string]any{
				"changes": []any{}, "error": "the user declined this change"}},
		{name: "compaction", item: codexItem{Type: "contextCompaction", ID: "k"},
			wantKind: model.KindContextCompaction, wantStatus: model.StatusInProgress},
		{name: "an unknown type keeps its members",
			item:     codexItem{Type: "webSearch", ID: "w", Raw: json.RawMessage(`{"type":"webSearch","id":"w","query":"go","status":"x"}`)},
			wantKind: "webSearch", wantStatus: model.StatusInProgress, wantFields: map[string]any{"query": "go"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planStart(c.item, "/w")
			if c.complete {
				p = planComplete(c.item, "/w")
			}
			if p.Skip != c.wantSkip {
				t.Fatalf("Skip = %v, want %v", p.Skip, c.wantSkip)
			}
			if c.wantSkip {
				return
			}
			if p.Kind != c.wantKind || p.Status != c.wantStatus {
				t.Errorf("kind/status = %s/%s, want %s/%s", p.Kind, p.Status, c.wantKind, c.wantStatus)
			}
			if bothEmpty := len(p.Fields) == 0 && len(c.wantFields) == 0; !bothEmpty && !reflect.DeepEqual(p.Fields, c.wantFields) {
				t.Errorf("fields = %#v\nwant %#v", p.Fields, c.wantFields)
			}
		})
	}
}

func TestDecisions(t *testing.T) {
	amend := json.RawMessage(`["touch","x"]`)
	cases := []struct {
		name        string
		method      string
		available   []json.RawMessage
		amendment   json.RawMessage
		wantOptions []model.Decision
		decide      model.Decision
		want        any
	}{
		{"plain command approve", "item/commandExecution/requestApproval", nil, nil,
			[]model.Decision{"approve", "deny"}, model.DecisionApprove, "accept"},
		{"deny is decline", "item/commandExecution/requestApproval", nil, nil,
			[]model.Decision{"approve", "deny"}, model.DecisionDeny, "decline"},
		{"acceptForSession offered", "item/commandExecution/requestApproval", []json.RawMessage{json.RawMessage(`"accept"`), json.RawMessage(`"acceptForSession"`)}, nil,
			[]model.Decision{"approve", "approveForSession", "deny"}, model.DecisionApproveForSession, "acceptForSession"},
		{"with only an amendment, for the session is accept (the bridge remembers it)", "item/commandExecution/requestApproval", nil, amend,
			[]model.Decision{"approve", "approveForSession", "deny"}, model.DecisionApproveForSession, "accept"},
		{"file changes take acceptForSession", "item/fileChange/requestApproval", nil, nil,
			[]model.Decision{"approve", "approveForSession", "deny"}, model.DecisionApproveForSession, "acceptForSession"},
		{"cancelled", "item/fileChange/requestApproval", nil, nil,
			[]model.Decision{"approve", "approveForSession", "deny"}, model.DecisionCancelled, "cancel"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := offeredDecisions(c.method, c.available, c.amendment)
			if got := o.options(); !reflect.DeepEqual(got, c.wantOptions) {
				t.Errorf("options = %v, want %v", got, c.wantOptions)
			}
			if got := o.codexDecision(c.decide); !reflect.DeepEqual(got, c.want) {
				t.Errorf("codexDecision(%s) = %#v, want %#v", c.decide, got, c.want)
			}
		})
	}
}

func TestErrorCodeAndRetryAttempt(t *testing.T) {
	for _, c := range []struct{ info, want string }{
		{`"internalServerError"`, "internalServerError"},
		{`{"responseStreamDisconnected":{"httpStatusCode":null}}`, "responseStreamDisconnected"},
		{`null`, "modelError"},
		{``, "modelError"},
	} {
		if got := errorCode(json.RawMessage(c.info)); got != c.want {
			t.Errorf("errorCode(%s) = %s, want %s", c.info, got, c.want)
		}
	}
	if a, m := retryAttempt("Reconnecting... 2/5"); a != 2 || m != 5 {
		t.Errorf("retryAttempt = %d/%d, want 2/5", a, m)
	}
	if a, m := retryAttempt("something else"); a != 0 || m != 0 {
		t.Errorf("retryAttempt of a plain message = %d/%d, want 0/0", a, m)
	}
}

func TestSummaryField(t *testing.T) {
	idx := func(i int) *int { return &i }
	oi := &openItem{}
	steps := []struct {
		index *int
		want  string
	}{
		{idx(0), "summary.0"}, {idx(0), "summary.0"}, {idx(2), ""}, {idx(1), "summary.1"}, {nil, "summary.0"},
	}
	for i, s := range steps {
		if got := summaryField(oi, deltaParams{SummaryIndex: s.index}); got != s.want {
			t.Errorf("step %d: %q, want %q", i, got, s.want)
		}
	}
	if oi.summaries != 2 {
		t.Errorf("summaries = %d, want 2", oi.summaries)
	}
}

func TestChildEnvDropsLookoutCredentials(t *testing.T) {
	env := childEnv(Options{Env: []string{"PATH=/bin", "LOOKOUT_TOKEN=secret", "CODEX_HOME=/old"}, Home: "/new"})
	want := []string{"PATH=/bin", "CODEX_HOME=/new"}
	if !reflect.DeepEqual(env, want) {
		t.Errorf("childEnv = %v, want %v", env, want)
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range []struct{ path, dir, want string }{
		{"/w/a/b.go", "/w", "a/b.go"},
		{"/w", "/w", "."},
		{"/other/x", "/w", "/other/x"},
		{"/w2/x", "/w", "/w2/x"},
		{"rel/x", "/w", "rel/x"},
		{"/w/x", "", "/w/x"},
	} {
		if got := relPath(c.path, c.dir); got != c.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", c.path, c.dir, got, c.want)
		}
	}
}
