package claude

import (
	"encoding/json"
	"slices"
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

func TestWithTodoWrite(t *testing.T) {
	for _, c := range []struct {
		name string
		env  []string
		want []string
	}{
		{"neither set", []string{"HOME=/h"}, []string{"HOME=/h", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1", "CLAUDE_CODE_ENABLE_TASKS=0"}},
		{"the user turned the tools off", []string{"CLAUDE_CODE_ENABLE_TODO_TOOLS=0"}, []string{"CLAUDE_CODE_ENABLE_TODO_TOOLS=0"}},
		{"the user wants the Task tools", []string{"CLAUDE_CODE_ENABLE_TASKS=1", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1"}, []string{"CLAUDE_CODE_ENABLE_TASKS=1", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1"}},
		{"a longer name is another variable", []string{"CLAUDE_CODE_ENABLE_TASKS_X=1"}, []string{"CLAUDE_CODE_ENABLE_TASKS_X=1", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1", "CLAUDE_CODE_ENABLE_TASKS=0"}},
	} {
		if got := withTodoWrite(slices.Clone(c.env)); !slices.Equal(got, c.want) {
			t.Errorf("%s: withTodoWrite = %q, want %q", c.name, got, c.want)
		}
	}
}
