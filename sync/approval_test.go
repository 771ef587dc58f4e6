package sync

import (
	"context"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// askingAgent runs one tool per turn that asks for approval, offering
// approveForSession, and reports the decision it got on decided.
type askingAgent struct{ decided chan model.Decision }

func (askingAgent) Launch(string) error { return nil }

func (a askingAgent) Run(ctx context.Context, t *host.Turn) error {
	id, err := t.StartItem(model.KindToolCall, model.StatusReady, map[string]any{"toolName": "shell", "input": map[string]any{"command": "true"}})
	if err != nil {
		return err
	}
	if err := t.UpdateItem(id, model.StatusWaitingUser, nil); err != nil {
		return err
	}
	d, err := t.Ask(ctx, host.ApprovalRequest{ItemID: id, Summary: "Run: true",
		Options: []model.Decision{model.DecisionApprove, model.DecisionApproveForSession, model.DecisionDeny}})
	if err != nil {
		return err
	}
	a.decided <- d
	if err := t.UpdateItem(id, model.StatusRunning, nil); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusCompleted, map[string]any{"exitCode": 0})
}

// TestApproveForSessionReachesTheHost: the client sends approveForSession
// over a real WebSocket and the host hands it to the agent (issue 25, 1:
// the client used to refuse every decision but approve and deny).
func TestApproveForSessionReachesTheHost(t *testing.T) {
	agent := askingAgent{decided: make(chan model.Decision, 1)}
	h := startHost(t, host.Options{AgentImpl: agent})
	sid := createSession(t, h.URL(), h.Token(), "approvals")
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)

	c.Submit("run a tool")
	s := waitFor(t, c.Client, "approval", func(s Picture) bool { return len(s.View.Approvals) == 1 })
	if !s.View.Approvals[0].Offers(model.DecisionApproveForSession) {
		t.Fatalf("the approval offers %q", s.View.Approvals[0].Options)
	}
	c.Respond(s.View.Approvals[0].ApprovalID, model.DecisionApproveForSession)
	select {
	case d := <-agent.decided:
		if d != model.DecisionApproveForSession {
			t.Fatalf("the agent got %q, want approveForSession", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the host never resolved the approval; client errors %q", c.Current().Errors)
	}
	s = waitFor(t, c.Client, "resolved and idle", func(s Picture) bool { return len(s.View.Approvals) == 0 && idle(s) })
	if len(s.Errors) != 0 {
		t.Fatalf("client errors %q", s.Errors)
	}
}
