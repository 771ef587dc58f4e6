package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/model"
)

// Claude Code tools the bridge shows in their own way.
const (
	toolBash      = "Bash"
	toolEdit      = "Edit"
	toolMultiEdit = "MultiEdit"
	toolWrite     = "Write"
	// toolAskUser asks the user questions through a permission prompt,
	// answered with the answers in its updatedInput (questions.go).
	toolAskUser = "AskUserQuestion"
)

// isFileTool reports whether a tool edits a file: it shows as a fileChange
// item rather than a toolCall.
func isFileTool(name string) bool {
	return name == toolEdit || name == toolWrite || name == toolMultiEdit
}

// toolPlan says how a tool_use block opens in Lookout.
type toolPlan struct {
	Kind   string
	Status string
	Fields map[string]any
}

// planTool maps a tool_use block. A streamed block opens before its input
// is known: a toolCall in inputStreaming (the input arrives as inputText
// deltas), a file edit as an empty fileChange. A block seen whole (input
// given) opens with its input: a toolCall ready, a fileChange with the
// change it proposes (read gives a file's current content).
func planTool(name string, input json.RawMessage, read func(string) (string, bool)) toolPlan {
	if isFileTool(name) {
		changes := []any{}
		if input != nil {
			changes = proposedChanges(name, input, read)
		}
		return toolPlan{Kind: model.KindFileChange, Status: model.StatusInProgress, Fields: map[string]any{"changes": changes}}
	}
	if input == nil {
		return toolPlan{Kind: model.KindToolCall, Status: model.StatusInputStreaming, Fields: map[string]any{"toolName": name, "inputText": ""}}
	}
	return toolPlan{Kind: model.KindToolCall, Status: model.StatusReady, Fields: map[string]any{"toolName": name, "inputText": string(input), "input": inputObject(input)}}
}

// inputObject decodes a tool's input for the "input" member: an object,
// or nil when it is not one.
func inputObject(input json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return nil
	}
	return m
}

// fileInput is the input of the Edit, MultiEdit and Write tools.
type fileInput struct {
	FilePath   string  `json:"file_path"`
	OldString  string  `json:"old_string"`
	NewString  string  `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
	Content    *string `json:"content"`
	Edits      []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	} `json:"edits"`
}

// maxReadBytes bounds the files the bridge reads to show a proposed edit
// at its real lines.
const maxReadBytes = 1 << 20

// readFile is the read function the bridge gives planTool: a regular file
// of at most maxReadBytes at an absolute path (as Claude Code's file tools
// take them), or nothing.
func readFile(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxReadBytes {
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// proposedChanges is the change a file tool's input proposes, before it
// ran: an Edit applied to the file's current content when read finds it
// (else the bare replacement, counted from line 1), a Write as an added
// file or as a replacement of the one there.
func proposedChanges(name string, input json.RawMessage, read func(string) (string, bool)) []any {
	var in fileInput
	if json.Unmarshal(input, &in) != nil || in.FilePath == "" {
		return []any{}
	}
	old, exists := read(in.FilePath)
	switch name {
	case toolWrite:
		content := ""
		if in.Content != nil {
			content = *in.Content
		}
		if !exists {
			return []any{change(in.FilePath, "add", bridge.WholeFileDiff(false, content))}
		}
		return []any{change(in.FilePath, "update", bridge.DiffHunks(old, content))}
	case toolEdit:
		if exists && strings.Contains(old, in.OldString) && in.OldString != "" {
			return []any{change(in.FilePath, "update", bridge.DiffHunks(old, replace(old, in.OldString, in.NewString, in.ReplaceAll)))}
		}
		return []any{change(in.FilePath, "update", bridge.DiffHunks(withNewline(in.OldString), withNewline(in.NewString)))}
	case toolMultiEdit:
		if !exists {
			old = ""
		}
		next := old
		for _, e := range in.Edits {
			if e.OldString == "" && next == "" {
				next = e.NewString
				continue
			}
			next = replace(next, e.OldString, e.NewString, e.ReplaceAll)
		}
		kind := "update"
		if !exists {
			kind = "add"
		}
		return []any{change(in.FilePath, kind, bridge.DiffHunks(old, next))}
	}
	return []any{}
}

func replace(s, old, new string, all bool) string {
	if all {
		return strings.ReplaceAll(s, old, new)
	}
	return strings.Replace(s, old, new, 1)
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func change(path, kind, diff string) map[string]any {
	return map[string]any{"path": path, "kind": kind, "diff": diff}
}

// fileResult is the tool_use_result Claude Code reports for Edit,
// MultiEdit and Write.
type fileResult struct {
	Type            string      `json:"type"` // Write: create | update
	FilePath        string      `json:"filePath"`
	Content         *string     `json:"content"`
	OriginalFile    *string     `json:"originalFile"`
	StructuredPatch []patchHunk `json:"structuredPatch"`
}

// resultChanges is the change a file tool made, from Claude Code's report
// of it; ok is false when the report says nothing usable (the proposed
// change stands then).
func resultChanges(name string, result json.RawMessage) ([]any, bool) {
	var r fileResult
	if json.Unmarshal(result, &r) != nil || r.FilePath == "" {
		return nil, false
	}
	if name == toolWrite && r.Type == "create" && r.Content != nil {
		return []any{change(r.FilePath, "add", bridge.WholeFileDiff(false, *r.Content))}, true
	}
	if len(r.StructuredPatch) > 0 {
		return []any{change(r.FilePath, "update", patchDiff(r.StructuredPatch))}, true
	}
	if r.OriginalFile != nil && r.Content != nil {
		return []any{change(r.FilePath, "update", bridge.DiffHunks(*r.OriginalFile, *r.Content))}, true
	}
	return nil, false
}

// toolResult is a tool_result block of a user message.
type toolResult struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// contentText reads a content member that is a string or an array of
// blocks: the text blocks joined, other blocks named.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// exitCodeRE reads the "Exit code N" line Claude Code puts before the
// output of a command that failed.
var exitCodeRE = regexp.MustCompile(`^Exit code (-?\d+)\n?`)

// bashResult is the part of the Bash tool's tool_use_result the bridge
// reads.
type bashResult struct {
	Stdout           string `json:"stdout"`
	Stderr           string `json:"stderr"`
	Interrupted      bool   `json:"interrupted"`
	BackgroundTaskID string `json:"backgroundTaskId"`
}

// planToolResult maps the result of a tool that ran (or was refused): the
// tool's terminal status and its members. A toolCall gets output (and, for
// Bash, exitCode); a failure gets error. result is Claude Code's
// tool_use_result for the block, nil when there is none.
func planToolResult(name string, r toolResult, result json.RawMessage) (string, map[string]any) {
	text := contentText(r.Content)
	f := map[string]any{}
	if name != toolBash {
		if r.IsError {
			f["error"] = text
			return model.StatusFailed, f
		}
		f["output"] = text
		return model.StatusCompleted, f
	}
	var br bashResult
	structured := json.Unmarshal(result, &br) == nil && len(result) > 0 && result[0] == '{'
	if r.IsError {
		if m := exitCodeRE.FindStringSubmatch(text); m != nil {
			code, _ := strconv.Atoi(m[1])
			f["exitCode"] = code
			f["output"] = text[len(m[0]):]
			f["error"] = fmt.Sprintf("the command exited with status %d", code)
			return model.StatusFailed, f
		}
		f["error"] = text
		return model.StatusFailed, f
	}
	switch {
	case structured && br.BackgroundTaskID != "":
		// Started in the background: no output or exit status yet.
		f["output"] = text
		return model.StatusCompleted, f
	case structured:
		out := br.Stdout
		if br.Stderr != "" {
			if out != "" && !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			out += br.Stderr
		}
		f["output"] = out
	default:
		f["output"] = text
	}
	if structured && br.Interrupted {
		f["error"] = "the command was interrupted"
		return model.StatusFailed, f
	}
	f["exitCode"] = 0
	return model.StatusCompleted, f
}

// approvalSummary is the one line a permission prompt shows: the command,
// the file, or the tool and its input.
func approvalSummary(name string, input json.RawMessage) string {
	var in struct {
		Command     string `json:"command"`
		Description string `json:"description"`
		FilePath    string `json:"file_path"`
	}
	_ = json.Unmarshal(input, &in)
	switch {
	case name == toolBash && in.Command != "":
		s := "Run: " + in.Command
		if in.Description != "" && in.Description != in.Command {
			s += " (" + in.Description + ")"
		}
		return s
	case (name == toolEdit || name == toolMultiEdit) && in.FilePath != "":
		return "Edit " + in.FilePath
	case name == toolWrite && in.FilePath != "":
		return "Write " + in.FilePath
	}
	s := "Use " + name
	if len(input) > 0 && string(input) != "{}" && string(input) != "null" {
		s += ": " + child.Cut(compactJSON(input), 200)
	}
	return s
}

func compactJSON(raw json.RawMessage) string {
	var b strings.Builder
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// sessionPermissions turns Claude Code's permission suggestions (what its
// own prompt offers as "don't ask again") into the permission updates of
// approveForSession: rules and directories kept for this session only,
// never written to a settings file, and for a file edit the switch to
// accepting edits for the session. Nil when nothing fits: then Lookout
// offers no approveForSession.
func sessionPermissions(tool string, suggestions []json.RawMessage) []any {
	var out []any
	for _, raw := range suggestions {
		var s map[string]any
		if json.Unmarshal(raw, &s) != nil {
			continue
		}
		switch s["type"] {
		case "addRules", "addDirectories":
		case "setMode":
			if !isFileTool(tool) || s["mode"] != "acceptEdits" {
				continue
			}
		default:
			continue
		}
		s["destination"] = "session"
		out = append(out, s)
	}
	return out
}

// errorCode names a failed model request for Lookout's error and warning
// codes, from its HTTP status and Anthropic's error type.
func errorCode(status int, typ string) string {
	switch {
	case status == 429 || typ == "rate_limit" || typ == "rate_limit_error":
		return "rateLimited"
	case status == 529 || typ == "overloaded" || typ == "overloaded_error":
		return "overloaded"
	case status == 401 || status == 403 || typ == "authentication_error" || typ == "permission_error" || typ == "authentication_failed":
		return "unauthorized"
	case status == 400 || status == 404 || status == 413 || typ == "invalid_request_error" || typ == "invalid_request":
		return "badRequest"
	case status >= 500 || typ == "api_error" || typ == "server_error":
		return "serverError"
	}
	return "modelError"
}

// localCommandOutput reads the output of a slash command Claude Code ran
// itself (/compact, /cost, ...), which it sends as a user message.
func localCommandOutput(text string) (string, bool) {
	const open, close = "<local-command-stdout>", "</local-command-stdout>"
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, open) {
		return "", false
	}
	t = strings.TrimPrefix(t, open)
	t, _, _ = strings.Cut(t, close)
	return strings.TrimSpace(t), true
}

// commandOutputMarkdown is a slash command's output as the agent message
// that shows it. Output of several lines (/cost's aligned table) is fenced
// as it is: markdown would join its lines into one paragraph. The fence is
// longer than any run of backticks inside.
func commandOutputMarkdown(out string) string {
	if !strings.Contains(out, "\n") {
		return out
	}
	longest, run := 0, 0
	for _, r := range out {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "text\n" + out + "\n" + fence
}
