package claude_test

import (
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The real Claude Code, in the environment the bridge gives it (TodoWrite
// on), runs the fake model's two TodoWrite calls; Lookout shows them as
// one plan item, revised, and no TodoWrite tool call.
func TestTodoWriteIsThePlan(t *testing.T) {
	r := newRig(t, rigOptions{})
	turn := r.Submit("plan the work")
	done, seen := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	plans := r.Items(model.KindPlan, turn)
	if len(plans) != 1 {
		t.Fatalf("%d plan items, want 1", len(plans))
	}
	for _, tc := range r.Items(model.KindToolCall, turn) {
		if tc.ToolName() == "TodoWrite" {
			t.Fatalf("TodoWrite shows as a tool call too: %s", tc.AppendJSON(nil))
		}
	}
	var revisions []model.Plan
	for _, ev := range seen {
		if ev.Item != nil && ev.Item.ID == plans[0].ID && ev.Method != model.MethodItemCompleted {
			revisions = append(revisions, ev.Item.PlanOf())
		}
	}
	if len(revisions) != 2 {
		t.Fatalf("%d plan revisions, want 2 (one per TodoWrite)", len(revisions))
	}
	for i, p := range revisions {
		want := claudetest.PlanTodos[i]
		if len(p.Steps) != len(want) {
			t.Fatalf("revision %d: %+v, want %+v", i+1, p.Steps, want)
		}
		for j, s := range p.Steps {
			status := map[string]string{"pending": model.StepPending, "in_progress": model.StepInProgress, "completed": model.StepCompleted}[want[j].Status]
			if s.Text != want[j].Content || s.Status != status || s.ActiveText != want[j].ActiveForm {
				t.Errorf("revision %d step %d = %+v, want %+v", i+1, j+1, s, want[j])
			}
		}
	}
	final := r.State.Item(plans[0].ID)
	if final.Status != model.StatusCompleted || final.PlanOf().Done() != 1 {
		t.Fatalf("the plan at the turn's end: %s", final.AppendJSON(nil))
	}
	if reply := r.Last(model.KindAgentMessage, turn).Text(); reply != claudetest.PlanAnswer {
		t.Errorf("the reply is %q, want %q (the model got both todo lists' results)", reply, claudetest.PlanAnswer)
	}
}

// A user who turned Claude Code's checklist tools off keeps them off: it
// refuses the model's TodoWrite, and Lookout shows the failed tool call,
// and no plan.
func TestRefusedTodoWriteIsAFailedToolCall(t *testing.T) {
	r := newRig(t, rigOptions{env: []string{"CLAUDE_CODE_ENABLE_TODO_TOOLS=0"}})
	turn := r.Submit("plan the work")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	if plans := r.Items(model.KindPlan, turn); len(plans) != 0 {
		t.Fatalf("a plan from a refused TodoWrite: %s", plans[0].AppendJSON(nil))
	}
	tools := r.Items(model.KindToolCall, turn)
	if len(tools) != 1 || tools[0].ToolName() != "TodoWrite" || tools[0].Status != model.StatusFailed || tools[0].ErrorMessage() == "" {
		t.Fatalf("tool calls %v, want TodoWrite failed with Claude Code's refusal", tools)
	}
}
