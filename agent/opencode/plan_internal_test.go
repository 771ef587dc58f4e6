package opencode

import (
	"reflect"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestTodoPlan(t *testing.T) {
	todo := func(content, status string) map[string]any {
		return map[string]any{"id": "x", "content": content, "status": status, "priority": "high"}
	}
	tests := []struct {
		name  string
		input map[string]any
		want  model.Plan
		ok    bool
	}{
		{"statuses", map[string]any{"todos": []any{todo("a", "completed"), todo("b", "in_progress"), todo("c", "pending")}},
			model.Plan{Steps: []model.PlanStep{{Text: "a", Status: model.StepCompleted}, {Text: "b", Status: model.StepInProgress}, {Text: "c", Status: model.StepPending}}}, true},
		{"cancelled leaves the plan", map[string]any{"todos": []any{todo("a", "cancelled"), todo("b", "pending")}},
			model.Plan{Steps: []model.PlanStep{{Text: "b", Status: model.StepPending}}}, true},
		{"an unknown status is pending", map[string]any{"todos": []any{todo("a", "blocked")}},
			model.Plan{Steps: []model.PlanStep{{Text: "a", Status: model.StepPending}}}, true},
		{"no content is left out", map[string]any{"todos": []any{todo("", "pending")}}, model.Plan{Steps: []model.PlanStep{}}, true},
		{"an empty list", map[string]any{"todos": []any{}}, model.Plan{Steps: []model.PlanStep{}}, true},
		{"no todos", map[string]any{}, model.Plan{}, false},
		{"todos not a list", map[string]any{"todos": "x"}, model.Plan{}, false},
	}
	for _, tt := range tests {
		got, ok := todoPlan(tt.input)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: todoPlan = %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
