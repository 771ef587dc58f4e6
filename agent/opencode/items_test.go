package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/model"
)

func mustPart(t *testing.T, raw string) *part {
	t.Helper()
	p, err := decodePart(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const editDiff = "Index: /w/a.txt\n===================================================================\n--- /w/a.txt\n+++ /w/a.txt\n@@ -1,2 +1,2 @@\n-old\n+new\n keep\n"

func TestFileChanges(t *testing.T) {
	cases := []struct {
		name, part, permDiff string
		want                 []any
	}{
		{"pending edit: no path yet", `{"id":"p","messageID":"m","type":"tool","tool":"edit","state":{"status":"pending","input":{},"raw":""}}`, "",
			[]any{}},
		{"running edit before permission", `{"id":"p","messageID":"m","type":"tool","tool":"edit","state":{"status":"running","input":{"filePath":"/w/a.txt","oldString":"old","newString":"new"}}}`, "",
			[]any{map[string]any{"path": "/w/a.txt", "kind": "update", "diff": ""}}},
		{"running edit after permission", `{"id":"p","messageID":"m","type":"tool","tool":"edit","state":{"status":"running","input":{"filePath":"/w/a.txt"}}}`, editDiff,
			[]any{map[string]any{"path": "/w/a.txt", "kind": "update", "diff": "@@ -1,2 +1,2 @@\n-old\n+new\n keep\n"}}},
		{"completed edit: filediff", `{"id":"p","messageID":"m","type":"tool","tool":"edit","state":{"status":"completed","input":{"filePath":"/w/a.txt"},"metadata":{"filediff":{"file":"/w/a.txt","patch":` + jsonQuote(editDiff) + `}}}}`, "",
			[]any{map[string]any{"path": "/w/a.txt", "kind": "update", "diff": "@@ -1,2 +1,2 @@\n-old\n+new\n keep\n"}}},
		{"write of a new file, never asked", `{"id":"p","messageID":"m","type":"tool","tool":"write","state":{"status":"completed","input":{"filePath":"/w/n.txt","content":"a\nb"},"metadata":{"exists":false}}}`, "",
			[]any{map[string]any{"path": "/w/n.txt", "kind": "add", "diff": "@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n"}}},
		{"write over a file, asked", `{"id":"p","messageID":"m","type":"tool","tool":"write","state":{"status":"completed","input":{"filePath":"/w/a.txt","content":"new\nkeep\n"},"metadata":{"exists":true}}}`, editDiff,
			[]any{map[string]any{"path": "/w/a.txt", "kind": "update", "diff": "@@ -1,2 +1,2 @@\n-old\n+new\n keep\n"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := fileChanges(mustPart(t, c.part), c.permDiff)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: %#v, want %#v", c.name, got, c.want)
			}
		})
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// OpenCode's diffs come with Index, === and ---/+++ lines, which the
// shared helper leaves out.
func TestOpenCodeDiffLosesItsHeader(t *testing.T) {
	if got := bridge.Hunks(editDiff); got != "@@ -1,2 +1,2 @@\n-old\n+new\n keep\n" {
		t.Errorf("hunks = %q", got)
	}
}

func TestToolStatesMap(t *testing.T) {
	cases := []struct {
		state, want string
	}{
		{`{"status":"pending","input":{},"raw":""}`, model.StatusInputStreaming},
		{`{"status":"running","input":{"command":"ls"}}`, model.StatusReady},
		{`{"status":"running","input":{"command":"ls"},"metadata":{"output":""}}`, model.StatusRunning},
		{`{"status":"completed","input":{},"output":"x"}`, model.StatusCompleted},
		{`{"status":"error","input":{},"error":"boom"}`, model.StatusFailed},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			var st toolState
			if err := json.Unmarshal([]byte(c.state), &st); err != nil {
				t.Fatal(err)
			}
			if got := toolTarget(&st); got != c.want {
				t.Errorf("toolTarget(%s) = %s, want %s", c.state, got, c.want)
			}
		})
	}
}

func TestToolCompletion(t *testing.T) {
	cases := []struct {
		part   string
		status string
		fields map[string]any
	}{
		{`{"id":"p","messageID":"m","type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"ls"},"output":"a\n","metadata":{"output":"a\n","exit":0}}}`,
			model.StatusCompleted, map[string]any{"toolName": "bash", "input": map[string]any{"command": "ls"}, "inputText": `{"command":"ls"}`, "output": "a\n", "exitCode": 0}},
		{`{"id":"p","messageID":"m","type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"false"},"output":"","metadata":{"output":"","exit":1}}}`,
			model.StatusFailed, map[string]any{"toolName": "bash", "input": map[string]any{"command": "false"}, "inputText": `{"command":"false"}`, "output": "", "exitCode": 1, "error": "the command exited with status 1"}},
		{`{"id":"p","messageID":"m","type":"tool","tool":"bash","state":{"status":"error","input":{"command":"rm x"},"error":"The user rejected permission to use this specific tool call."}}`,
			model.StatusFailed, map[string]any{"toolName": "bash", "input": map[string]any{"command": "rm x"}, "inputText": `{"command":"rm x"}`, "error": "the user declined this tool call"}},
		{`{"id":"p","messageID":"m","type":"tool","tool":"read","state":{"status":"completed","input":{"filePath":"/a"},"output":"1: x"}}`,
			model.StatusCompleted, map[string]any{"toolName": "read", "input": map[string]any{"filePath": "/a"}, "inputText": `{"filePath":"/a"}`, "output": "1: x"}},
	}
	for _, c := range cases {
		t.Run(c.status, func(t *testing.T) {
			status, fields := toolCompletion(mustPart(t, c.part))
			if status != c.status || !reflect.DeepEqual(fields, c.fields) {
				t.Errorf("toolCompletion(%s) = %s %#v, want %s %#v", c.part, status, fields, c.status, c.fields)
			}
		})
	}
}

func TestApprovalSummary(t *testing.T) {
	cases := map[string]string{
		`{"id":"per_1","permission":"bash","patterns":["echo hi"],"metadata":{"command":"echo hi && ls"},"always":["echo *"]}`:                   "Run: echo hi && ls",
		`{"id":"per_1","permission":"edit","patterns":["a.txt"],"metadata":{"filepath":"/w/a.txt","diff":""},"always":["*"]}`:                    "Edit /w/a.txt",
		`{"id":"per_1","permission":"external_directory","patterns":["/etc/*"],"metadata":{"filepath":"/etc/x","parentDir":"/etc"},"always":[]}`: "Access /etc, outside the working directory",
		`{"id":"per_1","permission":"webfetch","patterns":["*"],"metadata":{"url":"https://example.com"},"always":[]}`:                           "Fetch https://example.com",
		`{"id":"per_1","permission":"read","patterns":["/w/.env"],"metadata":{},"always":[]}`:                                                    "Allow read: /w/.env",
	}
	for raw, want := range cases {
		var p permissionAsked
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			t.Fatal(err)
		}
		if got := approvalSummary(p); got != want {
			t.Errorf("approvalSummary(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestErrorsTitlesAndUsage(t *testing.T) {
	for name, want := range map[string]string{"APIError": "modelError", "ProviderAuthError": "unauthorized", "ContextOverflowError": "contextWindowExceeded", "UnknownError": "agentError", "Whatever": "agentError"} {
		if got := errorCode(name); got != want {
			t.Errorf("errorCode(%s) = %s, want %s", name, got, want)
		}
	}
	var e ocError
	if err := json.Unmarshal([]byte(`{"name":"APIError","data":{"message":"bad request","statusCode":400,"isRetryable":false}}`), &e); err != nil {
		t.Fatal(err)
	}
	if e.text() != "bad request (HTTP 400)" {
		t.Errorf("error text %q", e.text())
	}
	if !isDefaultTitle("New session - 2026-11-30T06:51:25.649Z") || !isDefaultTitle("") || isDefaultTitle("Fix the flaky test") {
		t.Error("isDefaultTitle")
	}
	var u usage
	var step tokens
	if err := json.Unmarshal([]byte(`{"total":15,"input":8,"output":4,"reasoning":1,"cache":{"read":2,"write":0}}`), &step); err != nil {
		t.Fatal(err)
	}
	u.add(step)
	u.add(step)
	want := map[string]any{"inputTokens": int64(20), "cachedInputTokens": int64(4), "outputTokens": int64(8), "reasoningOutputTokens": int64(2), "totalTokens": int64(30), "contextTokens": int64(15)}
	if got := u.value(); !reflect.DeepEqual(got, want) {
		t.Errorf("usage %v, want %v", got, want)
	}
}

func TestSSEReader(t *testing.T) {
	in := ": comment\n\ndata: {\"a\":1}\n\nevent: x\r\ndata: line1\r\ndata: line2\r\n\r\ndata: " + strings.Repeat("z", 100<<10) + "\n\ndata: last"
	rd := newSSEReader(strings.NewReader(in))
	want := []string{`{"a":1}`, "line1\nline2", strings.Repeat("z", 100<<10), "last"}
	for _, w := range want {
		got, err := rd.next()
		if err != nil || string(got) != w {
			t.Fatalf("next = %.40q, %v; want %.40q", got, err, w)
		}
	}
	if _, err := rd.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last event: %v, want EOF", err)
	}
}

func TestChildEnv(t *testing.T) {
	env := childEnv(Options{Env: []string{"PATH=/bin", "LOOKOUT_TOKEN=x", "OPENCODE_SERVER_PASSWORD=mine", "HOME=/h"}}, "pw")
	got := strings.Join(env, " ")
	if strings.Contains(got, "LOOKOUT_") || strings.Contains(got, "=mine") || !strings.Contains(got, "OPENCODE_SERVER_PASSWORD=pw") ||
		!strings.Contains(got, "OPENCODE_DISABLE_AUTOUPDATE=1") || !strings.Contains(got, "HOME=/h") {
		t.Errorf("childEnv = %v", env)
	}
}

func TestWildcardMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"echo *", "echo hi", true},
		{"echo *", "echo", true},
		{"echo *", "echoes hi", false},
		{"*", "anything at all", true},
		{"git log?", "git logs", true},
		{"/w/*.txt", "/w/a.txt", true},
		{"/w/*.txt", "/w/a.go", false},
		{"a.b", "axb", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.pattern, " ", c.s), func(t *testing.T) {
			if got := wildcardMatch(c.pattern, c.s); got != c.want {
				t.Errorf("wildcardMatch(%q, %q) = %v", c.pattern, c.s, got)
			}
		})
	}
	s := &session{}
	ask := permissionAsked{Permission: "bash", Patterns: []string{"echo one"}, Always: []string{"echo *"}}
	if s.allowed(ask) {
		t.Error("allowed before any approval")
	}
	s.allow(ask)
	if !s.allowed(permissionAsked{Permission: "bash", Patterns: []string{"echo two", "echo three"}}) {
		t.Error("the like of an approved command is not allowed")
	}
	if s.allowed(permissionAsked{Permission: "bash", Patterns: []string{"echo two", "rm -rf x"}}) || s.allowed(permissionAsked{Permission: "edit", Patterns: []string{"echo two"}}) {
		t.Error("allowed more than was approved")
	}
}
