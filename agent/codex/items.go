package codex

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/model"
)

// codexItem is the part of a Codex ThreadItem the bridge reads. Raw holds
// the whole object, for item types the bridge does not know.
type codexItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Text             string          `json:"text"`
	Summary          []string        `json:"summary"`
	Command          string          `json:"command"`
	Cwd              string          `json:"cwd"`
	Status           string          `json:"status"`
	AggregatedOutput *string         `json:"aggregatedOutput"`
	ExitCode         *int            `json:"exitCode"`
	DurationMs       *int64          `json:"durationMs"`
	Changes          []codexChange   `json:"changes"`
	Raw              json.RawMessage `json:"-"`
}

// codexChange is one file of a Codex fileChange item.
type codexChange struct {
	Path string `json:"path"`
	Kind struct {
		Type     string  `json:"type"`
		MovePath *string `json:"move_path"`
	} `json:"kind"`
	Diff string `json:"diff"`
}

func decodeItem(raw json.RawMessage) (codexItem, error) {
	var it codexItem
	if err := json.Unmarshal(raw, &it); err != nil {
		return it, err
	}
	if it.ID == "" || it.Type == "" {
		return it, fmt.Errorf("an item without id or type")
	}
	it.Raw = raw
	return it, nil
}

// toolNameShell is the toolName of a Codex command execution.
const toolNameShell = "shell"

// itemPlan says how a Codex item shows in Lookout: its kind, the status it
// opens with, and its members.
type itemPlan struct {
	Skip   bool // the host already shows it (the user's own message)
	Kind   string
	Status string
	Fields map[string]any
}

// planStart maps an item/started item. Paths of file changes under cwd
// are made relative to it.
func planStart(it codexItem, cwd string) itemPlan {
	switch it.Type {
	case "userMessage":
		return itemPlan{Skip: true}
	case "agentMessage":
		return itemPlan{Kind: model.KindAgentMessage, Status: model.StatusInProgress, Fields: map[string]any{"text": it.Text}}
	case "reasoning":
		return itemPlan{Kind: model.KindReasoning, Status: model.StatusInProgress, Fields: map[string]any{"summary": nonNil(it.Summary)}}
	case "commandExecution":
		// Ready: Codex asks for approval, or starts the command, next.
		return itemPlan{Kind: model.KindToolCall, Status: model.StatusReady, Fields: commandFields(it)}
	case "fileChange":
		return itemPlan{Kind: model.KindFileChange, Status: model.StatusInProgress, Fields: map[string]any{"changes": changes(it.Changes, cwd)}}
	case "contextCompaction":
		return itemPlan{Kind: model.KindContextCompaction, Status: model.StatusInProgress}
	}
	return itemPlan{Kind: it.Type, Status: model.StatusInProgress, Fields: otherFields(it.Raw)}
}

// planComplete maps an item/completed item: its terminal status and final
// members. Codex's "declined" (the user said no) ends an item failed.
func planComplete(it codexItem, cwd string) itemPlan {
	p := planStart(it, cwd)
	if p.Skip {
		return p
	}
	p.Status = terminalStatus(it.Status)
	switch it.Type {
	case "commandExecution":
		f := p.Fields
		if it.AggregatedOutput != nil {
			f["output"] = *it.AggregatedOutput
		}
		if it.ExitCode != nil {
			f["exitCode"] = *it.ExitCode
		}
		if it.DurationMs != nil {
			f["durationMs"] = *it.DurationMs
		}
		switch {
		case it.Status == "declined":
			f["error"] = "the user declined this command"
		case p.Status == model.StatusFailed && it.ExitCode != nil:
			f["error"] = fmt.Sprintf("the command exited with status %d", *it.ExitCode)
		case p.Status == model.StatusFailed:
			f["error"] = "the command could not run"
		}
	case "fileChange":
		switch it.Status {
		case "declined":
			p.Fields["error"] = "the user declined this change"
		case "failed":
			p.Fields["error"] = "the change could not be applied"
		}
	}
	return p
}

func terminalStatus(codexStatus string) string {
	switch codexStatus {
	case "failed", "declined":
		return model.StatusFailed
	case "interrupted", "stopped":
		return model.StatusStopped
	}
	return model.StatusCompleted
}

func commandFields(it codexItem) map[string]any {
	input := map[string]any{"command": it.Command}
	if it.Cwd != "" {
		input["cwd"] = it.Cwd
	}
	b, _ := json.Marshal(input)
	return map[string]any{"toolName": toolNameShell, "input": input, "inputText": string(b)}
}

// changes maps Codex's file changes to fileChange's "changes" member:
// [{path, kind: add|delete|update, movePath?, diff}], with paths under
// cwd relative to it, as a patch names them.
func changes(cs []codexChange, cwd string) []any {
	out := make([]any, 0, len(cs))
	for _, c := range cs {
		m := map[string]any{"path": relPath(c.Path, cwd), "kind": c.Kind.Type, "diff": unifiedDiff(c.Kind.Type, c.Diff)}
		if c.Kind.MovePath != nil && *c.Kind.MovePath != "" {
			m["movePath"] = relPath(*c.Kind.MovePath, cwd)
		}
		out = append(out, m)
	}
	return out
}

// relPath is path relative to dir when it lies inside dir, else path.
func relPath(path, dir string) string {
	if dir == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}

// unifiedDiff makes Codex's diff of one file a unified diff hunk. Codex
// gives an update as a unified diff already, but an added or deleted file
// as its bare content.
func unifiedDiff(kind, diff string) string {
	if diff == "" || (kind != "add" && kind != "delete") || strings.HasPrefix(diff, "@@") {
		return diff
	}
	return bridge.WholeFileDiff(kind == "delete", diff)
}

// otherFields keeps every member of an item type the bridge does not map,
// except the ones Lookout's item object owns.
func otherFields(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	for _, k := range []string{"id", "type", "status", "itemId", "kind", "turnId", "revision", "position", "recordedAt", "truncated"} {
		delete(m, k)
	}
	return m
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// approvalSummary is the one line an approval shows: the whole command, or
// the files a change touches.
func approvalSummary(it codexItem, reason, cwd string) string {
	var s string
	switch it.Type {
	case "commandExecution":
		s = "Run: " + it.Command
	case "fileChange":
		paths := make([]string, 0, len(it.Changes))
		for _, c := range it.Changes {
			paths = append(paths, relPath(c.Path, cwd))
		}
		s = "Apply changes to " + strings.Join(paths, ", ")
		if len(paths) == 0 {
			s = "Apply a file change"
		}
	default:
		s = "Allow " + it.Type
	}
	if reason != "" && !strings.HasPrefix(reason, "Allow running the requested command") {
		s += " (" + reason + ")"
	}
	return s
}

// errorCode names a Codex error for Lookout's error.code: codexErrorInfo
// is either a string ("internalServerError") or an object with one key
// ({"responseStreamDisconnected": {...}}).
func errorCode(info json.RawMessage) string {
	var s string
	if json.Unmarshal(info, &s) == nil && s != "" {
		return s
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(info, &m) == nil {
		for k := range m {
			return k
		}
	}
	return "modelError"
}

// codexError is a Codex TurnError.
type codexError struct {
	Message           string          `json:"message"`
	CodexErrorInfo    json.RawMessage `json:"codexErrorInfo"`
	AdditionalDetails string          `json:"additionalDetails"`
}

// text is the error's message with its details.
func (e codexError) text() string {
	if e.AdditionalDetails != "" && e.AdditionalDetails != e.Message {
		return e.Message + ": " + e.AdditionalDetails
	}
	return e.Message
}

// retryAttempt reads "Reconnecting... 2/5" as attempt 2 of 5.
func retryAttempt(msg string) (attempt, max int) {
	var a, m int
	if i := strings.LastIndexByte(msg, ' '); i >= 0 {
		if n, _ := fmt.Sscanf(msg[i+1:], "%d/%d", &a, &m); n == 2 {
			return a, m
		}
	}
	return 0, 0
}
