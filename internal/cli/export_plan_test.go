package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The demo's plan is in the exported transcript: a task list in markdown,
// every step with its status in JSON.
func TestExportCarriesThePlan(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	var created struct {
		SessionID string `json:"sessionId"`
	}
	hosttest.Dial(t, h).MustCall(t, "session/create", map[string]any{}, &created)
	sid, tok := created.SessionID, "--token="+h.Token()
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "make a plan"); code != 0 {
		t.Fatalf("send: exit %d", code)
	}
	md, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown")
	want := "## Plan (5/5)\n\n- [x] Read the failing test\n- [x] Find the cause\n- [x] Add a regression test\n- [x] Fix the parser\n- [x] Run the tests\n"
	if code != 0 || !strings.Contains(md, want) {
		t.Errorf("the markdown export (exit %d) lacks\n%s\nin:\n%s", code, want, md)
	}
	js, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "json")
	if code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	var enc struct {
		Items []struct {
			Kind     string           `json:"kind"`
			Status   string           `json:"status"`
			Revision int              `json:"revision"`
			Steps    []model.PlanStep `json:"steps"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(js), &enc); err != nil {
		t.Fatal(err)
	}
	var plans int
	for _, it := range enc.Items {
		if it.Kind != model.KindPlan {
			continue
		}
		plans++
		if it.Status != model.StatusCompleted || it.Revision != 7 || len(it.Steps) != 5 || it.Steps[4] != (model.PlanStep{Text: "Run the tests", Status: model.StepCompleted}) {
			t.Errorf("the JSON export's plan: %+v", it)
		}
	}
	if plans != 1 {
		t.Errorf("%d plans in the JSON export, want 1", plans)
	}
}
