package host

import (
	"context"

	"github.com/lookout-sh/lookout/model"
)

// demoPlanRevisions are the demo agent's plan, revision by revision: it
// works through its steps, and at the third revision adds one it had not
// planned, saying why.
var demoPlanRevisions = []model.Plan{
	{Steps: []model.PlanStep{
		{Text: "Read the failing test", Status: model.StepInProgress, ActiveText: "Reading the failing test"},
		{Text: "Find the cause", Status: model.StepPending},
		{Text: "Fix the parser", Status: model.StepPending},
		{Text: "Run the tests", Status: model.StepPending},
	}},
	{Steps: []model.PlanStep{
		{Text: "Read the failing test", Status: model.StepCompleted},
		{Text: "Find the cause", Status: model.StepInProgress, ActiveText: "Finding the cause"},
		{Text: "Fix the parser", Status: model.StepPending},
		{Text: "Run the tests", Status: model.StepPending},
	}},
	{Explanation: "The cause is an off-by-one in the tokenizer: a regression test comes first.", Steps: []model.PlanStep{
		{Text: "Read the failing test", Status: model.StepCompleted},
		{Text: "Find the cause", Status: model.StepCompleted},
		{Text: "Add a regression test", Status: model.StepInProgress, ActiveText: "Adding a regression test"},
		{Text: "Fix the parser", Status: model.StepPending},
		{Text: "Run the tests", Status: model.StepPending},
	}},
	{Steps: []model.PlanStep{
		{Text: "Read the failing test", Status: model.StepCompleted},
		{Text: "Find the cause", Status: model.StepCompleted},
		{Text: "Add a regression test", Status: model.StepCompleted},
		{Text: "Fix the parser", Status: model.StepInProgress, ActiveText: "Fixing the parser"},
		{Text: "Run the tests", Status: model.StepPending},
	}},
	{Steps: []model.PlanStep{
		{Text: "Read the failing test", Status: model.StepCompleted},
		{Text: "Find the cause", Status: model.StepCompleted},
		{Text: "Add a regression test", Status: model.StepCompleted},
		{Text: "Fix the parser", Status: model.StepCompleted},
		{Text: "Run the tests", Status: model.StepInProgress, ActiveText: "Running the tests"},
	}},
}

// demoPlanPaces is how many pace steps the demo waits after each
// revision, so that the plan is seen working.
const demoPlanPaces = 8

// demoPlan gives the plan's revisions one after another, a short note
// after the second, then says the work is done and completes every step:
// the plan itself ends with the turn.
func demoPlan(ctx context.Context, t *Turn) error {
	for i, p := range demoPlanRevisions {
		if err := t.UpdatePlan(p); err != nil {
			return err
		}
		if i == 1 {
			if err := demoMessage(ctx, t, "Found it: the tokenizer stops one byte early.\n", 16); err != nil {
				return err
			}
		}
		for range demoPlanPaces {
			if err := t.Pace(ctx); err != nil {
				return err
			}
		}
	}
	if err := demoMessage(ctx, t, "The regression test and the fix are in; the tests pass.\n", 16); err != nil {
		return err
	}
	last := demoPlanRevisions[len(demoPlanRevisions)-1]
	done := model.Plan{Steps: make([]model.PlanStep, len(last.Steps))}
	for i, s := range last.Steps {
		done.Steps[i] = model.PlanStep{Text: s.Text, Status: model.StepCompleted}
	}
	return t.UpdatePlan(done)
}
