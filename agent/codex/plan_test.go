package codex

import (
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestCodexPlan(t *testing.T) {
	for _, c := range []struct {
		name, params string
		ok           bool
		want         model.Plan
	}{
		{"a plan", `{"threadId":"th","turnId":"tu","explanation":"why","plan":[{"step":"Read","status":"completed"},{"step":"Fix","status":"inProgress"},{"step":"Test","status":"pending"}]}`, true,
			model.Plan{Explanation: "why", Steps: []model.PlanStep{{Text: "Read", Status: model.StepCompleted}, {Text: "Fix", Status: model.StepInProgress}, {Text: "Test", Status: model.StepPending}}}},
		{"no explanation, odd statuses", `{"turnId":"tu","explanation":null,"plan":[{"step":"a","status":"in_progress"},{"step":"b","status":"blocked"},{"step":"","status":"pending"}]}`, true,
			model.Plan{Steps: []model.PlanStep{{Text: "a", Status: model.StepInProgress}, {Text: "b", Status: model.StepPending}}}},
		{"an empty plan", `{"turnId":"tu","plan":[]}`, true, model.Plan{Steps: []model.PlanStep{}}},
		{"no plan", `{"turnId":"tu"}`, false, model.Plan{}},
		{"not an object", `[1]`, false, model.Plan{}},
	} {
		p, turn, err := codexPlan(json.RawMessage(c.params))
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v", c.name, err)
			continue
		}
		if !c.ok {
			continue
		}
		if turn != "tu" || p.Explanation != c.want.Explanation || len(p.Steps) != len(c.want.Steps) {
			t.Errorf("%s: %+v for turn %q, want %+v", c.name, p, turn, c.want)
			continue
		}
		for i := range p.Steps {
			if p.Steps[i] != c.want.Steps[i] {
				t.Errorf("%s: step %d = %+v, want %+v", c.name, i, p.Steps[i], c.want.Steps[i])
			}
		}
		if model.CheckPlan(p) != nil {
			t.Errorf("%s: %v", c.name, model.CheckPlan(p))
		}
	}
}
