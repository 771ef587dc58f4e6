package codex

import (
	"encoding/json"
	"errors"

	"github.com/lookout-sh/lookout/model"
)

// planUpdate is Codex's turn/plan/updated: the whole plan its update_plan
// tool was given, each time the model calls it.
type planUpdate struct {
	TurnID      string  `json:"turnId"`
	Explanation *string `json:"explanation"`
	Plan        []struct {
		Step   string `json:"step"`
		Status string `json:"status"` // pending, inProgress, completed
	} `json:"plan"`
}

// errNotAPlan is codexPlan's error for params that hold no plan.
var errNotAPlan = errors.New("turn/plan/updated holds no plan")

// codexPlan maps turn/plan/updated to a plan and the Codex turn it is
// for: each step as it is (the model's in_progress spelling read as
// inProgress, any other status as pending), steps without text left out.
func codexPlan(params json.RawMessage) (model.Plan, string, error) {
	var u planUpdate
	if err := json.Unmarshal(params, &u); err != nil {
		return model.Plan{}, "", err
	}
	if u.Plan == nil {
		return model.Plan{}, "", errNotAPlan
	}
	p := model.Plan{Steps: []model.PlanStep{}}
	if u.Explanation != nil {
		p.Explanation = *u.Explanation
	}
	for _, s := range u.Plan {
		if s.Step == "" {
			continue
		}
		st := model.StepPending
		switch s.Status {
		case model.StepInProgress, "in_progress":
			st = model.StepInProgress
		case model.StepCompleted:
			st = model.StepCompleted
		}
		p.Steps = append(p.Steps, model.PlanStep{Text: s.Step, Status: st})
	}
	return p, u.TurnID, nil
}

// planUpdated revises the turn's plan with Codex's; a plan for another
// Codex turn than this one's is not this turn's.
func (ts *turnState) planUpdated(params json.RawMessage) error {
	p, turnID, err := codexPlan(params)
	if err != nil {
		return err
	}
	if turnID != "" && ts.codexID != "" && turnID != ts.codexID {
		return nil
	}
	return ts.t.UpdatePlan(p)
}
