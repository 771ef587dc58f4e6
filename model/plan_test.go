package model

import (
	"errors"
	"strings"
	"testing"
)

func TestPlanItemReadsBack(t *testing.T) {
	it, err := DecodeItem([]byte(`{"itemId":"P","kind":"plan","turnId":"T","revision":3,"status":"inProgress",` +
		`"explanation":"tests first","steps":[{"text":"Read the code","status":"completed"},` +
		`{"text":"Run the tests","status":"inProgress","activeText":"Running the tests"},` +
		`7,{"text":"Fix","status":"someday"},{"text":"Ship","status":"pending"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := it.PlanOf()
	if p.Explanation != "tests first" || len(p.Steps) != 4 {
		t.Fatalf("PlanOf = %+v", p)
	}
	if p.Steps[1].ActiveText != "Running the tests" || p.Steps[2].Status != StepPending {
		t.Fatalf("steps = %+v (an unknown step status reads as pending)", p.Steps)
	}
	if p.Done() != 1 || p.Current() != 1 {
		t.Fatalf("Done = %d, Current = %d, want 1 and 1", p.Done(), p.Current())
	}
	if !it.IsOpen() {
		t.Fatal("an inProgress plan reads as ended")
	}
}

func TestPlanCurrent(t *testing.T) {
	for _, c := range []struct {
		name     string
		statuses []string
		want     int
	}{
		{"none", nil, -1},
		{"all done", []string{StepCompleted, StepCompleted}, -1},
		{"first pending", []string{StepCompleted, StepPending, StepPending}, 1},
		{"in progress before pending", []string{StepPending, StepInProgress}, 1},
	} {
		var p Plan
		for _, s := range c.statuses {
			p.Steps = append(p.Steps, PlanStep{Text: "x", Status: s})
		}
		if got := p.Current(); got != c.want {
			t.Errorf("%s: Current = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestCheckPlan(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Plan
		ok   bool
	}{
		{"empty", Plan{}, true},
		{"steps", Plan{Steps: []PlanStep{{Text: "a", Status: StepPending}, {Text: "b", Status: StepCompleted}}}, true},
		{"no text", Plan{Steps: []PlanStep{{Status: StepPending}}}, false},
		{"claude's spelling", Plan{Steps: []PlanStep{{Text: "a", Status: "in_progress"}}}, false},
	} {
		if err := CheckPlan(c.p); (err == nil) != c.ok {
			t.Errorf("%s: CheckPlan = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

func TestBoundPlan(t *testing.T) {
	steps := make([]PlanStep, MaxPlanSteps+3)
	for i := range steps {
		steps[i] = PlanStep{Text: "step", Status: StepPending}
	}
	steps[0].Text = strings.Repeat("é", MaxPlanStepBytes) // two bytes a rune
	in := Plan{Steps: steps, Explanation: "why"}
	out, cut := BoundPlan(in)
	if !cut || len(out.Steps) != MaxPlanSteps || len(out.Steps[0].Text) != MaxPlanStepBytes || out.Explanation != "why" {
		t.Fatalf("BoundPlan: cut %v, %d steps, first %d bytes", cut, len(out.Steps), len(out.Steps[0].Text))
	}
	if len(in.Steps[0].Text) != 2*MaxPlanStepBytes {
		t.Fatal("BoundPlan changed its argument")
	}
	if _, cut := BoundPlan(Plan{Steps: steps[1:3]}); cut {
		t.Fatal("BoundPlan cut a plan within its bounds")
	}
}

// A plan folds under the revision rules: each revision restates its
// steps whole and replaces the held ones, a lower revision never does,
// it takes no delta once ended, and a snapshot holds its last steps.
func TestPlanFoldsUnderTheRevisionRules(t *testing.T) {
	frames := []string{
		`{"jsonrpc":"2.0","method":"item/started","params":{"sessionId":"S","viewCursor":"v:S:1","prevCursor":null,"item":{"itemId":"P","kind":"plan","turnId":"T","revision":1,"status":"inProgress","position":1,"steps":[{"text":"a","status":"inProgress"},{"text":"b","status":"pending"}]}}}`,
		`{"jsonrpc":"2.0","method":"item/updated","params":{"sessionId":"S","viewCursor":"v:S:2","prevCursor":"v:S:1","item":{"itemId":"P","kind":"plan","turnId":"T","revision":2,"status":"inProgress","position":1,"steps":[{"text":"a","status":"completed"},{"text":"b","status":"inProgress"},{"text":"c","status":"pending"}]}}}`,
		`{"jsonrpc":"2.0","method":"item/updated","params":{"sessionId":"S","viewCursor":"v:S:3","prevCursor":"v:S:2","item":{"itemId":"P","kind":"plan","turnId":"T","revision":1,"status":"inProgress","position":1,"steps":[]}}}`,
		`{"jsonrpc":"2.0","method":"item/completed","params":{"sessionId":"S","viewCursor":"v:S:4","prevCursor":"v:S:3","item":{"itemId":"P","kind":"plan","turnId":"T","revision":3,"status":"completed","position":1,"steps":[{"text":"a","status":"completed"},{"text":"b","status":"completed"},{"text":"c","status":"pending"}]}}}`,
	}
	st := NewState("S")
	for i, f := range frames {
		ev, err := DecodeFrame([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			if p := st.Item("P").PlanOf(); len(p.Steps) != 3 || p.Done() != 1 {
				t.Fatalf("after a lower revision the plan is %+v, want revision 2's three steps", p)
			}
		}
	}
	it := st.Item("P")
	if p := it.PlanOf(); it.Status != StatusCompleted || it.Revision != 3 || len(p.Steps) != 3 || p.Done() != 2 {
		t.Fatalf("plan = %+v, %+v", it, p)
	}
	delta, err := DecodeFrame([]byte(`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"S","viewCursor":"v:S:5","itemId":"P","field":"steps.0.text","delta":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var fe *FoldError
	if err := st.Apply(delta); !errors.As(err, &fe) || fe.Reason != TerminalItem {
		t.Fatalf("a delta to an ended plan: %v, want %s", err, TerminalItem)
	}
	re := NewState("S")
	if _, err := re.LoadSnapshot("S", "", st.Snapshot(0)); err != nil {
		t.Fatal(err)
	}
	if got := re.Item("P"); got == nil || got.IsOpen() || got.PlanOf().Done() != 2 {
		t.Fatalf("from a snapshot the plan is %+v", got)
	}
}

func TestPlanFields(t *testing.T) {
	p := Plan{Steps: []PlanStep{{Text: "a", Status: StepInProgress, ActiveText: "doing a"}}}
	f := p.Fields()
	if _, ok := f["explanation"]; ok {
		t.Fatal("an empty explanation is sent")
	}
	steps := f["steps"].([]any)
	if m := steps[0].(map[string]any); m["activeText"] != "doing a" || m["status"] != StepInProgress {
		t.Fatalf("step = %v", m)
	}
	if steps := (Plan{}).Fields()["steps"].([]any); steps == nil {
		t.Fatal("no steps encode as null, not []")
	}
}
