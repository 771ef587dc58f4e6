package codex_test

import (
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// planTool turns on Codex 0.169.0's update_plan tool, which it offers the
// model only when configured so.
const planTool = "[tools.update_plan]\nenabled = true\n"

// The real Codex runs the fake model's two update_plan calls and sends
// turn/plan/updated for each; Lookout shows one plan item, revised, with
// the first call's explanation, ended with the turn.
func TestUpdatePlanIsThePlan(t *testing.T) {
	r := newRig(t, rigOptions{home: codextest.HomeOptions{ExtraConfig: planTool}})
	turn := r.Submit("plan the work")
	done, seen := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	plans := r.Items(model.KindPlan, turn)
	if len(plans) != 1 {
		t.Fatalf("%d plan items, want 1", len(plans))
	}
	var revisions []model.Plan
	for _, ev := range seen {
		if ev.Item != nil && ev.Item.ID == plans[0].ID && ev.Method != model.MethodItemCompleted {
			revisions = append(revisions, ev.Item.PlanOf())
		}
	}
	if len(revisions) != 2 {
		t.Fatalf("%d plan revisions, want 2 (one per update_plan)", len(revisions))
	}
	status := map[string]string{"pending": model.StepPending, "in_progress": model.StepInProgress, "completed": model.StepCompleted}
	for i, p := range revisions {
		want := codextest.PlanSteps[i]
		if len(p.Steps) != len(want) {
			t.Fatalf("revision %d: %+v, want %+v", i+1, p.Steps, want)
		}
		for j, s := range p.Steps {
			if s.Text != want[j].Step || s.Status != status[want[j].Status] {
				t.Errorf("revision %d step %d = %+v, want %+v", i+1, j+1, s, want[j])
			}
		}
	}
	if revisions[0].Explanation != codextest.PlanExplanation || revisions[1].Explanation != "" {
		t.Errorf("explanations %q and %q", revisions[0].Explanation, revisions[1].Explanation)
	}
	final := r.State.Item(plans[0].ID)
	if final.Status != model.StatusCompleted || final.PlanOf().Done() != 1 {
		t.Fatalf("the plan at the turn's end: %s", final.AppendJSON(nil))
	}
	if reply := r.Last(model.KindAgentMessage, turn).Text(); reply != codextest.PlanAnswer {
		t.Errorf("the reply is %q, want %q (the model got both plans' outputs)", reply, codextest.PlanAnswer)
	}
}
