package model

import (
	"encoding/json"
	"fmt"
)

// KindPlan is the agent's plan for its turn: a checklist of steps, each
// with a text and a status, that the agent revises as it works
// (docs/protocol.md, "Plans"). A turn has at most one; each revision is an
// item/updated that restates every step, and the plan ends with its turn.
const KindPlan = "plan"

// Plan step statuses (a step's own, not the item's).
const (
	StepPending    = "pending"
	StepInProgress = "inProgress"
	StepCompleted  = "completed"
)

// Bounds of a plan. A host cuts a longer plan to them (the steps past
// MaxPlanSteps are dropped, a longer text is cut on a UTF-8 boundary) and
// lists "steps" in the item's truncated.
const (
	// MaxPlanSteps bounds the steps of one plan.
	MaxPlanSteps = 64
	// MaxPlanStepBytes bounds the text (and activeText) of one step.
	MaxPlanStepBytes = 1024
	// MaxPlanExplanationBytes bounds a plan's explanation.
	MaxPlanExplanationBytes = 4096
)

// PlanStep is one step of a plan.
type PlanStep struct {
	Text string `json:"text"`
	// Status is StepPending, StepInProgress or StepCompleted.
	Status string `json:"status"`
	// ActiveText, optional, says the step as it is being done ("Running
	// the tests" for "Run the tests"): what a client shows while the
	// step is in progress.
	ActiveText string `json:"activeText,omitempty"`
}

// Plan is what a plan item holds: its steps, in order, and the agent's
// optional explanation of its latest revision.
type Plan struct {
	Steps       []PlanStep `json:"steps"`
	Explanation string     `json:"explanation,omitempty"`
}

// IsStepStatus reports whether s is a plan step's status.
func IsStepStatus(s string) bool {
	return s == StepPending || s == StepInProgress || s == StepCompleted
}

// PlanOf reads a plan item's plan. Steps that are not objects are
// skipped; members of the wrong type read as empty, and a status that is
// not a step's reads as pending, so an odd plan still shows what it can.
func (it *Item) PlanOf() Plan {
	p := Plan{Explanation: it.String("explanation")}
	var steps []json.RawMessage
	if raw := it.Field("steps"); raw != nil && json.Unmarshal(raw, &steps) == nil {
		for _, s := range steps {
			var m struct {
				Text       json.RawMessage `json:"text"`
				Status     json.RawMessage `json:"status"`
				ActiveText json.RawMessage `json:"activeText"`
			}
			if len(s) == 0 || s[0] != '{' || json.Unmarshal(s, &m) != nil {
				continue
			}
			st := rawString(m.Status)
			if !IsStepStatus(st) {
				st = StepPending
			}
			p.Steps = append(p.Steps, PlanStep{Text: rawString(m.Text), Status: st, ActiveText: rawString(m.ActiveText)})
		}
	}
	return p
}

// Done is how many of the plan's steps are completed.
func (p Plan) Done() int {
	n := 0
	for _, s := range p.Steps {
		if s.Status == StepCompleted {
			n++
		}
	}
	return n
}

// Current is the index of the step the agent works on: the first in
// progress, else the first pending; -1 when every step is completed (or
// there are none).
func (p Plan) Current() int {
	pending := -1
	for i, s := range p.Steps {
		switch {
		case s.Status == StepInProgress:
			return i
		case s.Status == StepPending && pending < 0:
			pending = i
		}
	}
	return pending
}

// CheckPlan reports what is wrong with a plan an agent gives, or nil:
// every step needs text and a step status. Bounds are not checked here:
// BoundPlan cuts a plan to them.
func CheckPlan(p Plan) error {
	for i, s := range p.Steps {
		if s.Text == "" {
			return fmt.Errorf("plan step %d has no text", i+1)
		}
		if !IsStepStatus(s.Status) {
			return fmt.Errorf("plan step %d has status %q, not pending, inProgress or completed", i+1, s.Status)
		}
	}
	return nil
}

// BoundPlan cuts a plan to MaxPlanSteps steps, each text to
// MaxPlanStepBytes and the explanation to MaxPlanExplanationBytes (on
// UTF-8 boundaries), and reports whether it cut anything. p is not
// modified.
func BoundPlan(p Plan) (Plan, bool) {
	cut := false
	steps := p.Steps
	if len(steps) > MaxPlanSteps {
		steps, cut = steps[:MaxPlanSteps], true
	}
	out := Plan{Steps: make([]PlanStep, len(steps))}
	var c bool
	out.Explanation, c = cutText(p.Explanation, MaxPlanExplanationBytes)
	cut = cut || c
	for i, s := range steps {
		s.Text, c = cutText(s.Text, MaxPlanStepBytes)
		cut = cut || c
		s.ActiveText, c = cutText(s.ActiveText, MaxPlanStepBytes)
		cut = cut || c
		out.Steps[i] = s
	}
	return out, cut
}

// cutText cuts s to at most n bytes on a rune boundary, and reports
// whether it cut.
func cutText(s string, n int) (string, bool) {
	c := cutUTF8(s, n)
	return c, len(c) < len(s)
}

// Fields are a plan's members as an item carries them: "steps" (always,
// possibly empty) and "explanation" when there is one.
func (p Plan) Fields() map[string]any {
	steps := make([]any, len(p.Steps))
	for i, s := range p.Steps {
		m := map[string]any{"text": s.Text, "status": s.Status}
		if s.ActiveText != "" {
			m["activeText"] = s.ActiveText
		}
		steps[i] = m
	}
	f := map[string]any{"steps": steps}
	if p.Explanation != "" {
		f["explanation"] = p.Explanation
	}
	return f
}
