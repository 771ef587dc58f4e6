package opencode

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// toolTodoWrite is OpenCode's checklist tool: each call restates the whole
// todo list. The bridge shows it as the turn's plan, not as a tool call
// (docs/agents.md).
const toolTodoWrite = "todowrite"

// todoPlan maps a todowrite input to a plan: each todo a step, OpenCode's
// in_progress spelled inProgress, cancelled todos left out (they are no
// longer part of the plan) and any other status read as pending. ok is
// false for an input that is not a todo list.
func todoPlan(input map[string]any) (p model.Plan, ok bool) {
	raw, err := json.Marshal(input["todos"])
	if err != nil {
		return model.Plan{}, false
	}
	var todos []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	}
	if json.Unmarshal(raw, &todos) != nil || todos == nil {
		return model.Plan{}, false
	}
	p.Steps = []model.PlanStep{}
	for _, t := range todos {
		if t.Content == "" || t.Status == "cancelled" {
			continue
		}
		st := model.StepPending
		switch t.Status {
		case "in_progress":
			st = model.StepInProgress
		case "completed":
			st = model.StepCompleted
		}
		p.Steps = append(p.Steps, model.PlanStep{Text: t.Content, Status: st})
	}
	return p, true
}

// todoPart folds a todowrite part: once OpenCode completed it, its list is
// the turn's plan; one that fails shows as the failed tool call it is;
// until then nothing shows.
func (ts *turnState) todoPart(p *part) error {
	switch p.State.Status {
	case "completed":
		ts.closed[p.ID] = true
		plan, ok := todoPlan(p.State.Input)
		if !ok {
			return ts.toolPart(p)
		}
		return ts.t.UpdatePlan(plan)
	case "error":
		return ts.toolPart(p)
	}
	return nil
}
