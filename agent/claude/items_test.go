package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/model"
)

func TestDiffs(t *testing.T) {
	cases := []struct {
		name, got, want string
	}{
		{"an update", bridge.DiffHunks("alpha\nbeta\ngamma\n", "alpha\nBETA\ngamma\n"), "@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"},
		{"no change", bridge.DiffHunks("same\n", "same\n"), ""},
		{"an added file", bridge.WholeFileDiff(false, "one\ntwo\n"), "@@ -0,0 +1,2 @@\n+one\n+two\n"},
		{"an added file without a final newline", bridge.WholeFileDiff(false, "one"), "@@ -0,0 +1 @@\n+one\n\\ No newline at end of file\n"},
		{"an empty added file", bridge.WholeFileDiff(false, ""), ""},
		{"a structured patch", patchDiff([]patchHunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, Lines: []string{" a", "-b", "+B", " c"}},
			{OldStart: 9, OldLines: 1, NewStart: 9, NewLines: 1, Lines: []string{"-x", "+y"}}}),
			"@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -9 +9 @@\n-x\n+y\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
			}
		})
	}
}

func TestPlanTool(t *testing.T) {
	files := map[string]string{"/w/a.txt": "one\ntwo\nthree\nfour\n"}
	read := func(p string) (string, bool) { s, ok := files[p]; return s, ok }
	cases := []struct {
		name, tool, input string
		want              toolPlan
	}{
		{"a streaming tool", "Bash", "", toolPlan{model.KindToolCall, model.StatusInputStreaming, map[string]any{"toolName": "Bash", "inputText": ""}}},
		{"a whole tool", "Grep", `{"pattern":"x"}`, toolPlan{model.KindToolCall, model.StatusReady,
			map[string]any{"toolName": "Grep", "inputText": `{"pattern":"x"}`, "input": map[string]any{"pattern": "x"}}}},
		{"a streaming edit", "Edit", "", toolPlan{model.KindFileChange, model.StatusInProgress, map[string]any{"changes": []any{}}}},
		{"an edit at its real lines", "Edit", `{"file_path":"/w/a.txt","old_string":"three","new_string":"3"}`,
			toolPlan{model.KindFileChange, model.StatusInProgress, map[string]any{"changes": []any{map[string]any{
				"path": "/w/a.txt", "kind": "update", "diff": "@@ -1,4 +1,4 @@\n one\n two\n-three\n+3\n four\n"}}}}},
		{"an edit of a file not found", "Edit", `{"file_path":"/w/b.txt","old_string":"x","new_string":"y"}`,
			toolPlan{model.KindFileChange, model.StatusInProgress, map[string]any{"changes": []any{map[string]any{
				"path": "/w/b.txt", "kind": "update", "diff": "@@ -1 +1 @@\n-x\n+y\n"}}}}},
		{"a new file", "Write", `{"file_path":"/w/new.txt","content":"hi\n"}`,
			toolPlan{model.KindFileChange, model.StatusInProgress, map[string]any{"changes": []any{map[string]any{
				"path": "/w/new.txt", "kind": "add", "diff": "@@ -0,0 +1 @@\n+hi\n"}}}}},
		{"a file replaced", "Write", `{"file_path":"/w/a.txt","content":"one\n"}`,
			toolPlan{model.KindFileChange, model.StatusInProgress, map[string]any{"changes": []any{map[string]any{
				"path": "/w/a.txt", "kind": "update", "diff": "@@ -1,4 +1 @@\n one\n-two\n-three\n-four\n"}}}}},
		{"several edits", "MultiEdit", `{"file_path":"/w/a.txt","edits":[{"old_string":"one","new_string":"1"},{"old_string":"four","new_string":"4"}]}`,
			toolPlan{model.KindFileChange, model.StatusInProgress, map[string]any{"changes": []any{map[string]any{
				"path": "/w/a.txt", "kind": "update", "diff": "@@ -1,4 +1,4 @@\n-one\n+1\n two\n three\n-four\n+4\n"}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var input json.RawMessage
			if c.input != "" {
				input = json.RawMessage(c.input)
			}
			if got := planTool(c.tool, input, read); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s:\n got %#v\nwant %#v", c.name, got, c.want)
			}
		})
	}
}

func TestResultChanges(t *testing.T) {
	cases := []struct {
		name, tool, result string
		want               []any
		ok                 bool
	}{
		{"an edit's structured patch", "Edit", `{"filePath":"/w/a","structuredPatch":[{"oldStart":2,"oldLines":1,"newStart":2,"newLines":1,"lines":["-b","+B"]}]}`,
			[]any{map[string]any{"path": "/w/a", "kind": "update", "diff": "@@ -2 +2 @@\n-b\n+B\n"}}, true},
		{"a created file", "Write", `{"type":"create","filePath":"/w/n","content":"x\n","structuredPatch":[],"originalFile":null}`,
			[]any{map[string]any{"path": "/w/n", "kind": "add", "diff": "@@ -0,0 +1 @@\n+x\n"}}, true},
		{"an overwrite without a patch", "Write", `{"type":"update","filePath":"/w/n","content":"y\n","structuredPatch":[],"originalFile":"x\n"}`,
			[]any{map[string]any{"path": "/w/n", "kind": "update", "diff": "@@ -1 +1 @@\n-x\n+y\n"}}, true},
		{"an error string", "Edit", `"Error: file not read"`, nil, false},
		{"nothing", "Edit", ``, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := resultChanges(c.tool, json.RawMessage(c.result))
			if ok != c.ok || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: got %#v %v, want %#v %v", c.name, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestPlanToolResult(t *testing.T) {
	cases := []struct {
		name, tool, content string
		isError             bool
		result              string
		status              string
		fields              map[string]any
	}{
		{"a command's output", "Bash", `"done"`, false, `{"stdout":"done","stderr":"","interrupted":false}`,
			model.StatusCompleted, map[string]any{"output": "done", "exitCode": 0}},
		{"stdout and stderr", "Bash", `"a"`, false, `{"stdout":"a","stderr":"warn","interrupted":false}`,
			model.StatusCompleted, map[string]any{"output": "a\nwarn", "exitCode": 0}},
		{"a failed command", "Bash", `"Exit code 2\nls: cannot access 'x'"`, true, `"Error: Exit code 2\nls: cannot access 'x'"`,
			model.StatusFailed, map[string]any{"output": "ls: cannot access 'x'", "exitCode": 2, "error": "the command exited with status 2"}},
		{"a denied command", "Bash", `"The user denied this in Lookout."`, true, `"Error: The user denied this in Lookout."`,
			model.StatusFailed, map[string]any{"error": "The user denied this in Lookout."}},
		{"a command started in the background", "Bash", `"Command running in background with ID: b1"`, false, `{"stdout":"","stderr":"","interrupted":false,"backgroundTaskId":"b1"}`,
			model.StatusCompleted, map[string]any{"output": "Command running in background with ID: b1"}},
		{"an interrupted command", "Bash", `"partial"`, false, `{"stdout":"partial","stderr":"","interrupted":true}`,
			model.StatusFailed, map[string]any{"output": "partial", "error": "the command was interrupted"}},
		{"another tool", "Read", `[{"type":"text","text":"1\tx"},{"type":"image"}]`, false, ``,
			model.StatusCompleted, map[string]any{"output": "1\tx\n[image]"}},
		{"another tool failing", "Read", `"File does not exist."`, true, ``,
			model.StatusFailed, map[string]any{"error": "File does not exist."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, fields := planToolResult(c.tool, toolResult{Content: json.RawMessage(c.content), IsError: c.isError}, json.RawMessage(c.result))
			if status != c.status || !reflect.DeepEqual(fields, c.fields) {
				t.Errorf("%s: got %s %#v, want %s %#v", c.name, status, fields, c.status, c.fields)
			}
		})
	}
}

func TestApprovalSummary(t *testing.T) {
	cases := []struct{ tool, input, want string }{
		{"Bash", `{"command":"go test ./...","description":"Run the tests"}`, "Run: go test ./... (Run the tests)"},
		{"Bash", `{"command":"ls"}`, "Run: ls"},
		{"Edit", `{"file_path":"/w/a.go","old_string":"x","new_string":"y"}`, "Edit /w/a.go"},
		{"Write", `{"file_path":"/w/b.go","content":"x"}`, "Write /w/b.go"},
		{"WebFetch", `{"url":"https://example.com/?a=1&b=<2>"}`, `Use WebFetch: {"url":"https://example.com/?a=1&b=<2>"}`},
		{"ExitPlanMode", `{}`, "Use ExitPlanMode"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			if got := approvalSummary(c.tool, json.RawMessage(c.input)); got != c.want {
				t.Errorf("%s %s: %q, want %q", c.tool, c.input, got, c.want)
			}
		})
	}
}

func TestSessionPermissions(t *testing.T) {
	raw := func(s ...string) []json.RawMessage {
		var out []json.RawMessage
		for _, x := range s {
			out = append(out, json.RawMessage(x))
		}
		return out
	}
	bash := raw(`{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch a"}],"behavior":"allow","destination":"localSettings"}`,
		`{"type":"addDirectories","directories":["/w"],"destination":"session"}`,
		`{"type":"setMode","mode":"acceptEdits","destination":"session"}`)
	got := sessionPermissions("Bash", bash)
	want := []any{
		map[string]any{"type": "addRules", "rules": []any{map[string]any{"toolName": "Bash", "ruleContent": "touch a"}}, "behavior": "allow", "destination": "session"},
		map[string]any{"type": "addDirectories", "directories": []any{"/w"}, "destination": "session"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a command's suggestions: %#v", got)
	}
	edit := sessionPermissions("Edit", raw(`{"type":"setMode","mode":"acceptEdits","destination":"session"}`))
	if len(edit) != 1 || edit[0].(map[string]any)["mode"] != "acceptEdits" {
		t.Errorf("an edit's suggestions: %#v", edit)
	}
	if p := sessionPermissions("Bash", raw(`{"type":"setMode","mode":"bypassPermissions","destination":"session"}`, `{"type":"removeRules"}`)); p != nil {
		t.Errorf("suggestions that are not for this command kept: %#v", p)
	}
}

func TestErrorCode(t *testing.T) {
	cases := []struct {
		status int
		typ    string
		want   string
	}{
		{500, "server_error", "serverError"},
		{0, "api_error", "serverError"},
		{529, "overloaded", "overloaded"},
		{429, "rate_limit", "rateLimited"},
		{401, "authentication_failed", "unauthorized"},
		{400, "invalid_request_error", "badRequest"},
		{0, "unknown", "modelError"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.status, " ", c.typ), func(t *testing.T) {
			if got := errorCode(c.status, c.typ); got != c.want {
				t.Errorf("errorCode(%d, %q) = %q, want %q", c.status, c.typ, got, c.want)
			}
		})
	}
}

func TestLocalCommandOutput(t *testing.T) {
	if out, ok := localCommandOutput("<local-command-stdout>Compacted </local-command-stdout>"); !ok || out != "Compacted" {
		t.Errorf("got %q %v", out, ok)
	}
	if _, ok := localCommandOutput("This session is being continued"); ok {
		t.Error("a summary read as command output")
	}
}

func TestChildEnv(t *testing.T) {
	env := childEnv(Options{Env: []string{"PATH=/bin", "LOOKOUT_TOKEN=secret", "CLAUDE_CONFIG_DIR=/old"}, ConfigDir: "/cfg"})
	if !reflect.DeepEqual(env, []string{"PATH=/bin", "CLAUDE_CONFIG_DIR=/cfg", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1", "CLAUDE_CODE_ENABLE_TASKS=0"}) {
		t.Errorf("env %q", env)
	}
	if env := childEnv(Options{Env: []string{"CLAUDE_CONFIG_DIR=/mine", "CLAUDE_CODE_ENABLE_TASKS=1"}}); !reflect.DeepEqual(env, []string{"CLAUDE_CONFIG_DIR=/mine", "CLAUDE_CODE_ENABLE_TASKS=1"}) {
		t.Errorf("the user's own CLAUDE_CONFIG_DIR was not kept: %q", env)
	}
}

func TestReadFileReadsSmallFilesAtAbsolutePaths(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.txt")
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(small, []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, maxReadBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, ok := readFile(small); !ok || s != "hi\n" {
		t.Errorf("small file: %q %v", s, ok)
	}
	for _, p := range []string{big, dir, filepath.Join(dir, "missing"), "small.txt"} {
		if _, ok := readFile(p); ok {
			t.Errorf("%s was read", p)
		}
	}
}

func TestCommandOutputMarkdown(t *testing.T) {
	cases := []struct{ out, want string }{
		{"Compacted", "Compacted"},
		{"Total cost:  $0.01\nTotal duration (API):  1.2s", "```text\nTotal cost:  $0.01\nTotal duration (API):  1.2s\n```"},
		{"a ``` b\nc", "````text\na ``` b\nc\n````"},
	}
	for _, c := range cases {
		if got := commandOutputMarkdown(c.out); got != c.want {
			t.Errorf("commandOutputMarkdown(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}
