package claude

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

// toolTodoWrite is Claude Code's checklist tool: each call restates the
// whole todo list. The bridge shows it as the turn's plan, not as a tool
// call (docs/agents.md).
const toolTodoWrite = "TodoWrite"

// todoInput is TodoWrite's input.
type todoInput struct {
	Todos []struct {
		Content    string `json:"content"`
		Status     string `json:"status"` // pending, in_progress, completed
		ActiveForm string `json:"activeForm"`
	} `json:"todos"`
}

// todoPlan maps a TodoWrite input to a plan: each todo a step, Claude
// Code's in_progress spelled inProgress and any status it may add read as
// pending; todos without content are left out. ok is false for an input
// that is not a todo list.
func todoPlan(input json.RawMessage) (p model.Plan, ok bool) {
	var in todoInput
	if json.Unmarshal(input, &in) != nil || in.Todos == nil {
		return model.Plan{}, false
	}
	p.Steps = []model.PlanStep{}
	for _, t := range in.Todos {
		if t.Content == "" {
			continue
		}
		st := model.StepPending
		switch t.Status {
		case "in_progress":
			st = model.StepInProgress
		case "completed":
			st = model.StepCompleted
		}
		step := model.PlanStep{Text: t.Content, Status: st}
		if t.ActiveForm != t.Content {
			step.ActiveText = t.ActiveForm
		}
		p.Steps = append(p.Steps, step)
	}
	return p, true
}

// updatePlan gives the turn's plan the todo list a TodoWrite input holds
// (an input that is not one changes nothing).
func (ts *turnState) updatePlan(input json.RawMessage) error {
	p, ok := todoPlan(input)
	if !ok {
		return nil
	}
	return ts.t.UpdatePlan(p)
}

// todoResult ends a TodoWrite: Claude Code kept the list, which becomes
// the turn's plan, or refused it (a TodoWrite it does not offer), which
// shows as the failed tool call it was.
func (ts *turnState) todoResult(oi *openItem, r toolResult) error {
	if !r.IsError {
		return ts.updatePlan(oi.todos)
	}
	fields := map[string]any{"toolName": oi.tool, "inputText": string(oi.todos), "error": contentText(r.Content)}
	if in := inputObject(oi.todos); in != nil {
		fields["input"] = in
	}
	_, err := ts.t.RecordItem(model.KindToolCall, model.StatusFailed, fields)
	return err
}

// The environment switches of Claude Code's checklist tools. Run with -p,
// Claude Code 2.1.332 offers the model no checklist unless
// CLAUDE_CODE_ENABLE_TODO_TOOLS is on, and then the TaskCreate family
// unless CLAUDE_CODE_ENABLE_TASKS is off (measured: docs/agents.md).
const (
	envTodoTools = "CLAUDE_CODE_ENABLE_TODO_TOOLS"
	envTasks     = "CLAUDE_CODE_ENABLE_TASKS"
)

// withTodoWrite turns TodoWrite on in env, so that the model keeps the
// checklist its own TUI would show, as the turn's plan: both switches
// are added unless env sets either (the user's choice stands).
func withTodoWrite(env []string) []string {
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == envTodoTools || name == envTasks {
			return env
		}
	}
	return append(env, envTodoTools+"=1", envTasks+"=0")
}
