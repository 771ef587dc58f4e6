package codex_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// TestCompactRunsThreadCompactStart: the agent command compact is Codex's
// thread/compact/start: the fake model gets Codex's compaction request
// (not a turn carrying "/compact"), the transcript holds a completed
// contextCompaction, and the session goes on.
func TestCompactRunsThreadCompactStart(t *testing.T) {
	r := newRig(t, rigOptions{})
	var offered []host.AgentCommand
	if err := json.Unmarshal(r.State.Value(host.StateCommands), &offered); err != nil || len(offered) != 1 || offered[0].Name != "compact" {
		t.Fatalf("a new Codex session offers %s (%v), want compact", r.State.Value(host.StateCommands), err)
	}
	first, _ := r.Turn("say: something to summarise")
	agenttest.WantCompleted(t, first)
	before := len(r.fake.Requests())

	done, _ := r.Command("/compact", "compact")
	agenttest.WantCompleted(t, done)
	if c := r.One(model.KindContextCompaction, done.TurnID); c.Status != model.StatusCompleted {
		t.Errorf("the compaction ended %s", c.Status)
	}
	reqs := r.fake.Requests()[before:]
	if len(reqs) != 1 || reqs[0].Kind != "compaction" {
		t.Fatalf("the model got %d requests after /compact (%+v), want one compaction request", len(reqs), reqs)
	}
	if slices.Contains(reqs[0].Prompts(), "/compact") {
		t.Error("/compact reached the model as a prompt")
	}
	next, _ := r.Turn("say: after the compaction")
	agenttest.WantCompleted(t, next)
}
