package host_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The demo's plan is one item of its turn: opened once, revised by
// item/updated events that each restate every step at a higher
// revision, and completed with the turn, its last steps kept.
func TestDemoPlanIsOneItemRevisedWhole(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	done, seen := runTurn(t, c, sid, st, "p", "make a plan")
	if done.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s", done.Status)
	}
	plans := itemsOfKind(st, model.KindPlan)
	if len(plans) != 1 {
		t.Fatalf("%d plan items, want one per turn", len(plans))
	}
	plan := plans[0]
	var methods []string
	rev := int64(0)
	for _, ev := range seen {
		if ev.Item == nil || ev.Item.ID != plan.ID {
			continue
		}
		if ev.Item.Revision <= rev {
			t.Fatalf("revision %d after %d", ev.Item.Revision, rev)
		}
		rev = ev.Item.Revision
		methods = append(methods, ev.Method)
		if ev.Method == model.MethodItemDelta {
			t.Fatal("a plan streamed a delta")
		}
	}
	want := "item/started item/updated item/updated item/updated item/updated item/updated item/completed"
	if got := strings.Join(methods, " "); got != want {
		t.Fatalf("plan events: %s\nwant: %s", got, want)
	}
	p := plan.PlanOf()
	if plan.Status != model.StatusCompleted || plan.TurnID != done.TurnID || len(p.Steps) != 5 || p.Done() != 5 || p.Explanation != "" {
		t.Fatalf("plan at the end: %s", plan.AppendJSON(nil))
	}
	snap, _ := snapshotState(t, hosttest.Dial(t, h), sid)
	if string(snap.Encode()) != string(st.Encode()) {
		t.Fatal("live fold != snapshot")
	}
}

// An interrupted turn's plan ends stopped with it, keeping its steps.
func TestInterruptedTurnStopsItsPlan(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, turn, err := c.Submit(sid, "ps", "plan, then slow")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		return ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindAgentMessage && len(itemsOfKind(st, model.KindAgentMessage)) >= 3
	}); err != nil {
		t.Fatal(err)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	plan := itemsOfKind(st, model.KindPlan)[0]
	if plan.Status != model.StatusStopped || len(plan.PlanOf().Steps) != 5 {
		t.Fatalf("plan after the interrupt: %s", plan.AppendJSON(nil))
	}
}

// planAgent gives UpdatePlan what an agent might, and records what it
// answered.
type planAgent struct {
	host.DemoAgent
	errs chan error
}

func (a planAgent) Run(ctx context.Context, t *host.Turn) error {
	step := func(text, status string) model.PlanStep { return model.PlanStep{Text: text, Status: status} }
	long := make([]model.PlanStep, model.MaxPlanSteps+1)
	for i := range long {
		long[i] = step("step", model.StepPending)
	}
	a.errs <- t.UpdatePlan(model.Plan{Steps: []model.PlanStep{step("a", "in_progress")}}) // refused
	a.errs <- t.UpdatePlan(model.Plan{Steps: []model.PlanStep{step("a", model.StepInProgress)}, Explanation: "why"})
	a.errs <- t.UpdatePlan(model.Plan{Steps: []model.PlanStep{step("a", model.StepInProgress)}, Explanation: "why"}) // the same: not emitted
	a.errs <- t.UpdatePlan(model.Plan{Steps: long})
	a.errs <- t.UpdatePlan(model.Plan{Steps: []model.PlanStep{step("a", model.StepCompleted)}})
	close(a.errs)
	return nil
}

func TestUpdatePlanRules(t *testing.T) {
	errs := make(chan error, 8)
	h := hosttest.Start(t, host.Options{AgentImpl: planAgent{errs: errs}})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, seen := runTurn(t, c, sid, st, "r", "go")
	var got []error
	for err := range errs {
		got = append(got, err)
	}
	if got[0] == nil || got[1] != nil || got[2] != nil || got[3] != nil || got[4] != nil {
		t.Fatalf("UpdatePlan answered %v", got)
	}
	var revs []*model.Item
	for _, ev := range seen {
		if ev.Item != nil && ev.Item.Kind == model.KindPlan {
			revs = append(revs, ev.Item)
		}
	}
	if len(revs) != 4 { // started, the long one, the last, completed with the turn
		t.Fatalf("%d plan events, want 4", len(revs))
	}
	if p := revs[0].PlanOf(); p.Explanation != "why" || revs[0].Truncated("steps") {
		t.Fatalf("first revision %s", revs[0].AppendJSON(nil))
	}
	if p := revs[1].PlanOf(); len(p.Steps) != model.MaxPlanSteps || !revs[1].Truncated("steps") || p.Explanation != "" {
		t.Fatalf("the long revision: %d steps, truncated %v, explanation %q", len(p.Steps), revs[1].TruncatedFields(), p.Explanation)
	}
	if p := revs[2].PlanOf(); len(p.Steps) != 1 || revs[2].Truncated("steps") || p.Done() != 1 {
		t.Fatalf("the last revision %s", revs[2].AppendJSON(nil))
	}
	if revs[3].Status != model.StatusCompleted {
		t.Fatalf("the plan ended %s", revs[3].Status)
	}
}
