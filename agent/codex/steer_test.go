package codex_test

import (
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Text steered into a running Codex turn (turn/steer) reaches the model
// within the same turn, and the transcript shows it there once.
func TestSteerReachesTheModelInTheRunningTurn(t *testing.T) {
	r := newRig(t, rigOptions{fake: codextest.FakeOptions{SlowDeltas: 40}})
	turn := r.Submit("slow please")
	r.Until("the answer streaming", func(ev *model.Event) bool { return ev.Method == model.MethodItemDelta })
	const steer = "say: the steer landed"
	var res struct{ TurnID, ItemID string }
	r.Client.MustCall(t, "turn/steer", map[string]any{"sessionId": r.SessionID, "commandId": "steer-1", "text": steer}, &res)
	if res.TurnID != turn || res.ItemID == "" {
		t.Fatalf("steer answered %+v, want turn %s", res, turn)
	}
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	heard := false
	for _, req := range r.fake.Requests() {
		heard = heard || slices.Contains(req.Prompts(), steer)
	}
	if !heard {
		t.Fatal("no model request carries the steered text")
	}
	var steered, said int
	for _, it := range r.Items(model.KindUserMessage, turn) {
		if it.Steered() && it.Text() == steer && it.Status == model.StatusCompleted {
			steered++
		}
	}
	for _, it := range r.Items(model.KindAgentMessage, turn) {
		if it.Text() == "the steer landed" {
			said++
		}
	}
	if steered != 1 || said != 1 {
		t.Fatalf("the turn shows the steer %d times and its answer %d times, want 1 and 1", steered, said)
	}
}
