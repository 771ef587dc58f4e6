package codex_test

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/model"
)

// TestContract runs the behaviours every bridge shows against the real
// Codex (agenttest.RunContract).
func TestContract(t *testing.T) {
	agenttest.RunContract(t, agenttest.Subject{
		Agent:          "codex",
		NewRig:         func(t *testing.T) *agenttest.Rig { return newRig(t, rigOptions{}).Rig },
		PlainAnswer:    codextest.PlainAnswer,
		PlainReasoning: codextest.PlainReasoning,
		Shell:          "shell",
		Denied:         "declined",
		// Codex offers acceptForSession for a file change it asks about,
		// which it does in a read-only sandbox. No Again (measured): an
		// update of the approved file runs without asking in another
		// session as well, so the fake cannot show the approval's scope.
		ForSession: &agenttest.ForSession{
			NewRig: func(t *testing.T) *agenttest.Rig {
				return newRig(t, rigOptions{home: codextest.HomeOptions{Sandbox: "read-only"}}).Rig
			},
			Prompt:  "patch: asked.txt",
			Kind:    model.KindFileChange,
			Summary: "asked.txt",
		},
		Checks: map[string]agenttest.Check{
			agenttest.CommandApproved: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				if !strings.HasPrefix(r.One(model.KindAgentMessage, done.TurnID).Text(), codextest.CommandAnswerPrefix) {
					t.Errorf("no answer after the command")
				}
			},
			agenttest.ApprovedForSession: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				fc := r.One(model.KindFileChange, done.TurnID)
				if ch := fc.FileChanges(); len(ch) != 1 || ch[0].Path != "asked.txt" {
					t.Errorf("the change approved for the session = %+v, want asked.txt", ch)
				}
			},
			agenttest.InterruptWhileAsking: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				if tool := r.One(model.KindToolCall, done.TurnID); tool.Status != model.StatusStopped {
					t.Errorf("the command waiting for approval ended %s, want stopped", tool.Status)
				}
			},
		},
	})
}
