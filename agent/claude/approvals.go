package claude

import (
	"context"
	"encoding/json"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// permissionRequest is Claude Code's can_use_tool control request: a
// permission prompt for one tool call.
type permissionRequest struct {
	Subtype     string            `json:"subtype"`
	ToolName    string            `json:"tool_name"`
	Input       json.RawMessage   `json:"input"`
	ToolUseID   string            `json:"tool_use_id"`
	Suggestions []json.RawMessage `json:"permission_suggestions"`
}

// deniedMessage is what Claude Code (and its model) is told when the user
// denies a tool call.
const deniedMessage = "The user denied this in Lookout."

// denyMessage is the permission response's message for a deny: Claude
// Code hands it to the model as the tool's result, so the user's reason
// (what to do instead) follows the denial there.
func denyMessage(reason string) string {
	if reason == "" {
		return deniedMessage
	}
	return deniedMessage + " They said what to do instead:\n" + reason
}

// controlRequestLocked answers one of Claude Code's control requests: a
// permission prompt is put to the user (AskUserQuestion's as questions);
// anything else is refused, with a warning.
func (ts *turnState) controlRequestLocked(m *message) error {
	c := ts.s.p.conn
	var req permissionRequest
	if err := json.Unmarshal(m.Request, &req); err != nil {
		_ = c.respondError(m.RequestID, "Lookout could not read the request")
		return err
	}
	if req.Subtype != "can_use_tool" {
		_ = c.respondError(m.RequestID, "Lookout cannot answer "+req.Subtype)
		return ts.t.Warning(model.Warning{RequestKind: "agent", Code: "unsupportedRequest",
			Message: "Claude Code asked something Lookout cannot answer yet (" + req.Subtype + "); it was refused"})
	}
	if req.ToolName == toolAskUser {
		return ts.askQuestionsLocked(m.RequestID, req)
	}
	if req.ToolName == toolTodoWrite {
		// Writing the checklist touches nothing but the plan: allowed
		// without asking. Its tool_result revises the plan when the bridge
		// saw the call (a subagent's own checklist is not the turn's).
		input := req.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		return c.respond(m.RequestID, map[string]any{"behavior": "allow", "updatedInput": input})
	}
	return ts.askLocked(m.RequestID, req)
}

// askLocked puts a permission prompt to the user. The wait runs on its
// own goroutine, so the turn keeps folding meanwhile; the answer goes back
// to Claude Code as the request's control_response.
func (ts *turnState) askLocked(requestID string, req permissionRequest) error {
	c := ts.s.p.conn
	oi := ts.tools[req.ToolUseID]
	if oi == nil {
		// A prompt about a tool call the bridge never showed (a subagent's):
		// show one to ask about.
		var err error
		if oi, err = ts.openTool(req.ToolName, req.ToolUseID, req.Input); err != nil {
			_ = c.respond(requestID, map[string]any{"behavior": "deny", "message": "Lookout could not show the request."})
			return err
		}
	} else if !oi.inputDone {
		_ = ts.inputDone(oi, req.Input) // asked about even when its input cannot be shown
	}
	if oi.kind == model.KindToolCall && oi.status == model.StatusReady {
		if ts.t.UpdateItem(oi.id, model.StatusWaitingUser, nil) == nil {
			oi.status = model.StatusWaitingUser
		}
	}
	perms := sessionPermissions(req.ToolName, req.Suggestions)
	options := []model.Decision{model.DecisionApprove, model.DecisionDeny}
	if len(perms) > 0 {
		options = []model.Decision{model.DecisionApprove, model.DecisionApproveForSession, model.DecisionDeny}
	}
	ask := host.ApprovalRequest{ItemID: oi.id, Summary: approvalSummary(req.ToolName, req.Input), Options: options}
	input := req.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	actx, cancel := context.WithCancel(ts.ctx)
	ts.approvals[requestID] = cancel
	go func() {
		defer cancel()
		ans, err := ts.t.Ask(actx, ask)
		ts.mu.Lock()
		defer ts.mu.Unlock()
		_, pending := ts.approvals[requestID]
		delete(ts.approvals, requestID)
		if err != nil {
			if pending && ts.ctx.Err() != nil {
				_ = c.respond(requestID, map[string]any{"behavior": "deny", "message": "The turn was interrupted.", "interrupt": true})
			}
			return // withdrawn by Claude Code: it wants no answer
		}
		d := ans.Decision
		var answer map[string]any
		switch d {
		case model.DecisionApprove:
			answer = map[string]any{"behavior": "allow", "updatedInput": input}
		case model.DecisionApproveForSession:
			answer = map[string]any{"behavior": "allow", "updatedInput": input, "updatedPermissions": perms}
		default:
			answer = map[string]any{"behavior": "deny", "message": denyMessage(ans.Reason)}
		}
		_ = c.respond(requestID, answer)
		if d != model.DecisionDeny && !ts.outcome.Finished() {
			ts.toRunningLocked(oi)
		}
	}()
	return nil
}
