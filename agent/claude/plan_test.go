package claude

import (
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestTodoPlan(t *testing.T) {
	for _, c := range []struct {
		name  string
		input string
		ok    bool
		want  []model.PlanStep
	}{
		{"a list", `{"todos":[{"content":"Read","status":"completed","activeForm":"Reading"},{"content":"Fix","status":"in_progress","activeForm":"Fixing"},{"content":"Test","status":"pending","activeForm":"Test"}]}`, true,
			[]model.PlanStep{{Text: "Read", Status: model.StepCompleted, ActiveText: "Reading"}, {Text: "Fix", Status: model.StepInProgress, ActiveText: "Fixing"}, {Text: "Test", Status: model.StepPending}}},
		{"cleared", `{"todos":[]}`, true, []model.PlanStep{}},
		{"an unknown status and no content", `{"todos":[{"content":"Later","status":"blocked"},{"content":"","status":"pending"}]}`, true,
			[]model.PlanStep{{Text: "Later", Status: model.StepPending}}},
		{"not a todo list", `{"command":"ls"}`, false, nil},
		{"not json", `{"todos":[`, false, nil},
	} {
		p, ok := todoPlan(json.RawMessage(c.input))
		if ok != c.ok || len(p.Steps) != len(c.want) {
			t.Errorf("%s: todoPlan = %+v, %v", c.name, p, ok)
			continue
		}
		for i := range c.want {
			if p.Steps[i] != c.want[i] {
				t.Errorf("%s: step %d = %+v, want %+v", c.name, i, p.Steps[i], c.want[i])
			}
		}
		if ok && model.CheckPlan(p) != nil {
			t.Errorf("%s: the plan does not pass CheckPlan: %v", c.name, model.CheckPlan(p))
		}
	}
}
