package claude

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// userMessage is Claude Code's "user" line: tool results, or text it adds
// to the conversation itself.
type userMessage struct {
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult json.RawMessage `json:"tool_use_result"`
}

// user completes the tool calls whose results the message carries, and
// shows the output of a slash command Claude Code ran itself.
func (ts *turnState) user(raw json.RawMessage, subagent bool) error {
	var um userMessage
	if err := json.Unmarshal(raw, &um); err != nil {
		return err
	}
	var text string
	if json.Unmarshal(um.Message.Content, &text) == nil {
		if out, ok := localCommandOutput(text); ok && out != "" && !subagent {
			_, err := ts.t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": commandOutputMarkdown(out)})
			return err
		}
		return nil
	}
	var blocks []toolResult
	if err := json.Unmarshal(um.Message.Content, &blocks); err != nil {
		return err
	}
	results := 0
	for _, b := range blocks {
		if b.Type == "tool_result" {
			results++
		}
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		var result json.RawMessage
		if results == 1 {
			result = um.ToolUseResult
		}
		if err := ts.toolResult(b, result); err != nil {
			return err
		}
	}
	return nil
}

// toolResult ends a tool call with its result.
func (ts *turnState) toolResult(r toolResult, result json.RawMessage) error {
	oi := ts.tools[r.ToolUseID]
	if oi == nil {
		return nil // a tool the bridge never showed
	}
	delete(ts.tools, r.ToolUseID)
	if oi.key.msg != "" {
		delete(ts.blocks, oi.key)
	}
	if oi.kind == model.KindPlan {
		return ts.todoResult(oi, r)
	}
	status, fields := planToolResult(oi.tool, r, result)
	if r.IsError && ts.ctx.Err() != nil {
		// Claude Code stopped the tool because the turn was interrupted.
		status = model.StatusStopped
	}
	if oi.kind == model.KindFileChange {
		changes := oi.proposed
		if c, ok := resultChanges(oi.tool, result); ok && status == model.StatusCompleted {
			changes = c
		}
		if changes == nil {
			changes = []any{}
		}
		f := map[string]any{"changes": changes}
		if e, ok := fields["error"]; ok {
			f["error"] = e
		}
		return ts.t.CompleteItem(oi.id, status, f)
	}
	if status == model.StatusCompleted {
		ts.toRunningLocked(oi) // a tool passes through running to complete
	}
	return ts.t.CompleteItem(oi.id, status, fields)
}
