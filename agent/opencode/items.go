package opencode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/model"
)

// File tools are OpenCode tools whose parts show as fileChange items: they
// edit files, and OpenCode reports the edit as a unified diff.
var fileTools = map[string]bool{"edit": true, "write": true, "multiedit": true, "patch": true, "apply_patch": true}

// isFileTool reports whether a tool part shows as a fileChange.
func isFileTool(tool string) bool { return fileTools[tool] }

// toolFields are a toolCall's members for an OpenCode tool part: toolName
// is OpenCode's tool name (bash, read, grep, ...); input is the parsed
// arguments and inputText their JSON, or the raw text still streaming.
func toolFields(p *part) map[string]any {
	f := map[string]any{"toolName": p.Tool}
	st := p.State
	if st == nil {
		return f
	}
	if len(st.Input) > 0 {
		b, _ := json.Marshal(st.Input)
		f["input"] = st.Input
		f["inputText"] = string(b)
	} else if st.Raw != "" {
		f["inputText"] = st.Raw
	}
	return f
}

// toolTarget is the Lookout status an OpenCode tool state maps to.
// OpenCode reports "running" as soon as the tool's input is parsed, before
// it asks for permission; the bridge holds such a tool at ready until it
// shows it runs (output metadata), or is approved.
func toolTarget(st *toolState) string {
	if st == nil {
		return model.StatusInputStreaming
	}
	switch st.Status {
	case "pending":
		return model.StatusInputStreaming
	case "running":
		if _, ok := st.Metadata["output"]; ok {
			return model.StatusRunning
		}
		return model.StatusReady
	case "completed":
		return model.StatusCompleted
	case "error":
		return model.StatusFailed
	}
	return model.StatusReady
}

// toolCompletion is a finished tool part's terminal status and members.
// A bash command that exited non-zero ends failed, as a failed Codex
// command does.
func toolCompletion(p *part) (string, map[string]any) {
	f := toolFields(p)
	st := p.State
	if st.Status == "error" {
		msg := st.Error
		if strings.Contains(msg, "rejected permission") {
			msg = "the user declined this tool call"
		}
		f["error"] = msg
		var out string
		if st.meta("output", &out) && out != "" {
			f["output"] = out
		}
		return model.StatusFailed, f
	}
	out := st.Output
	var mout string
	if out == "" && st.meta("output", &mout) {
		out = mout
	}
	f["output"] = out
	var exit *int
	if st.meta("exit", &exit) && exit != nil {
		f["exitCode"] = *exit
		if *exit != 0 {
			f["error"] = fmt.Sprintf("the command exited with status %d", *exit)
			return model.StatusFailed, f
		}
	}
	return model.StatusCompleted, f
}

// fileChanges maps a file tool part to fileChange's "changes": one file,
// with the unified diff OpenCode reported (the tool's metadata, or the
// diff it showed when it asked permission, permDiff). A file that write
// creates is all "+" lines even without a reported diff.
func fileChanges(p *part, permDiff string) []any {
	st := p.State
	if st == nil {
		return []any{}
	}
	path, _ := st.Input["filePath"].(string)
	if path == "" {
		st.meta("filepath", &path)
	}
	if path == "" {
		return []any{}
	}
	diff := ""
	var fd struct {
		Patch string `json:"patch"`
	}
	var d string
	switch {
	case st.meta("filediff", &fd) && fd.Patch != "":
		diff = fd.Patch
	case st.meta("diff", &d) && d != "":
		diff = d
	default:
		diff = permDiff
	}
	diff = bridge.Hunks(diff)
	kind := "update"
	if diff != "" {
		kind = bridge.DiffKind(diff)
	}
	var exists bool
	if p.Tool == "write" && st.meta("exists", &exists) && !exists {
		kind = "add"
		if diff == "" {
			content, _ := st.Input["content"].(string)
			diff = bridge.WholeFileDiff(false, content)
		}
	}
	return []any{map[string]any{"path": path, "kind": kind, "diff": diff}}
}

// patchChanges maps the diffs of GET /session/{id}/diff to fileChange's
// "changes", for the files in want (all when want is nil).
func patchChanges(diffs []fileDiff, want map[string]bool) []any {
	out := []any{}
	for _, d := range diffs {
		if want != nil && !want[d.File] {
			continue
		}
		kind := "update"
		switch d.Status {
		case "added":
			kind = "add"
		case "deleted":
			kind = "delete"
		}
		out = append(out, map[string]any{"path": d.File, "kind": kind, "diff": bridge.Hunks(d.Patch)})
	}
	return out
}

// fileDiff is one file of OpenCode's snapshot diff.
type fileDiff struct {
	File   string `json:"file"`
	Patch  string `json:"patch"`
	Status string `json:"status"`
}

// approvalSummary is the one line an approval shows.
func approvalSummary(p permissionAsked) string {
	patterns := strings.Join(p.Patterns, ", ")
	switch p.Permission {
	case "bash":
		cmd := p.metaString("command")
		if cmd == "" {
			cmd = patterns
		}
		return "Run: " + cmd
	case "edit":
		if f := p.metaString("filepath"); f != "" {
			return "Edit " + f
		}
		return "Edit " + patterns
	case "external_directory":
		dir := p.metaString("parentDir")
		if dir == "" {
			dir = patterns
		}
		return "Access " + dir + ", outside the working directory"
	case "webfetch":
		if u := p.metaString("url"); u != "" {
			return "Fetch " + u
		}
	}
	if patterns != "" && patterns != "*" {
		return "Allow " + p.Permission + ": " + patterns
	}
	return "Allow " + p.Permission
}

// errorCode names an OpenCode error for Lookout's error.code.
func errorCode(name string) string {
	switch name {
	case "APIError":
		return "modelError"
	case "ProviderAuthError":
		return "unauthorized"
	case "ContextOverflowError":
		return "contextWindowExceeded"
	case "MessageOutputLengthError":
		return "outputTooLong"
	case "ContentFilterError":
		return "contentFiltered"
	case "StructuredOutputError":
		return "structuredOutputFailed"
	case "MessageAbortedError":
		return "interrupted"
	}
	return "agentError"
}

var defaultTitleRE = regexp.MustCompile(`^(New|Child) session - \d{4}-\d{2}-\d{2}T`)

// isDefaultTitle reports whether OpenCode's session title is the
// placeholder it uses until its title model names the session.
func isDefaultTitle(title string) bool { return title == "" || defaultTitleRE.MatchString(title) }

// usage is the usage session value: token counts of the session, the
// last request's size and the model's window. OpenCode's input count
// leaves cached tokens out; inputTokens counts them, as OpenAI does.
type usage struct {
	Input, Cached, Output, Reasoning int64
	Context, Window                  int64
}

// add counts one step's tokens.
func (u *usage) add(t tokens) {
	u.Input += int64(t.Input + t.Cache.Read + t.Cache.Write)
	u.Cached += int64(t.Cache.Read)
	u.Output += int64(t.Output)
	u.Reasoning += int64(t.Reasoning)
	if n := contextTokens(t); n > 0 {
		u.Context = n
	}
}

// totals takes OpenCode's totals of the session.
func (u *usage) totals(t tokens) {
	u.Input = int64(t.Input + t.Cache.Read + t.Cache.Write)
	u.Cached = int64(t.Cache.Read)
	u.Output = int64(t.Output)
	u.Reasoning = int64(t.Reasoning)
}

// value is the usage session value.
func (u *usage) value() map[string]any {
	v := map[string]any{
		"inputTokens":           u.Input,
		"cachedInputTokens":     u.Cached,
		"outputTokens":          u.Output,
		"reasoningOutputTokens": u.Reasoning,
		"totalTokens":           u.Input + u.Output + u.Reasoning,
	}
	if u.Context > 0 {
		v["contextTokens"] = u.Context
	}
	if u.Window > 0 {
		v["contextWindow"] = u.Window
	}
	return v
}

// contextTokens is what one step's request held: the context in use.
func contextTokens(t tokens) int64 {
	if t.Total > 0 {
		return int64(t.Total)
	}
	return int64(t.Input + t.Cache.Read + t.Cache.Write + t.Output + t.Reasoning)
}
