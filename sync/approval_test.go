package sync

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// askingAgent runs one tool per turn that asks for approval, offering
// approveForSession, and reports the decision it got on decided (and the
// whole answer on answered, when set).
type askingAgent struct {
	decided  chan model.Decision
	answered chan host.Answer
}

func (askingAgent) Launch(string) error { return nil }

func (a askingAgent) Run(ctx context.Context, t *host.Turn) error {
	id, err := t.StartItem(model.KindToolCall, model.StatusReady, map[string]any{"toolName": "shell", "input": map[string]any{"command": "true"}})
	if err != nil {
		return err
	}
	if err := t.UpdateItem(id, model.StatusWaitingUser, nil); err != nil {
		return err
	}
	ans, err := t.Ask(ctx, host.ApprovalRequest{ItemID: id, Summary: "Run: true",
		Options: []model.Decision{model.DecisionApprove, model.DecisionApproveForSession, model.DecisionDeny}})
	if err != nil {
		return err
	}
	a.decided <- ans.Decision
	if a.answered != nil {
		a.answered <- ans
	}
	if ans.Decision == model.DecisionDeny {
		return t.CompleteItem(id, model.StatusFailed, map[string]any{"error": "denied"})
	}
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

// TestAnswerGivenOfflineIsSentOnReconnect: an approval answered while the
// connection is down stays owed (Picture.Answers, not sent) instead of
// being dropped, and reaches the host once the client is back (issue 25,
// 2). Sending it again is harmless: the host ignores a second answer.
func TestAnswerGivenOfflineIsSentOnReconnect(t *testing.T) {
	agent := askingAgent{decided: make(chan model.Decision, 1)}
	h := startHost(t, host.Options{AgentImpl: agent})
	sid := createSession(t, h.URL(), h.Token(), "offline answer")
	p := newFaultProxy(t, h.Addr(), 7)
	c := fastClient(t, Options{URL: p.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)
	c.Submit("run a tool")
	s := waitFor(t, c.Client, "approval", func(s Picture) bool { return len(s.View.Approvals) == 1 })
	id := s.View.Approvals[0].ApprovalID

	p.Refuse(true)
	p.KillAll()
	waitFor(t, c.Client, "reconnecting", func(s Picture) bool { return s.Freshness.State == Reconnecting })
	c.Respond(id, model.DecisionApproveForSession)
	s = waitFor(t, c.Client, "the answer owed", func(s Picture) bool { return len(s.Answers) == 1 })
	if a := s.Answers[0]; a.ApprovalID != id || a.Decision != model.DecisionApproveForSession || a.Sent {
		t.Fatalf("owed answer %+v, want approveForSession for %s, not sent", a, id)
	}
	select {
	case d := <-agent.decided:
		t.Fatalf("the host got %q while the client was offline", d)
	case <-time.After(50 * time.Millisecond):
	}

	p.Refuse(false)
	select {
	case d := <-agent.decided:
		if d != model.DecisionApproveForSession {
			t.Fatalf("the agent got %q, want approveForSession", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the answer never reached the host; client errors %q", c.Current().Errors)
	}
	s = waitFor(t, c.Client, "confirmed and idle", func(s Picture) bool { return len(s.Answers) == 0 && idle(s) })
	if len(s.Errors) != 0 {
		t.Fatalf("client errors %q", s.Errors)
	}
}

// TestDenyReasonReachesTheAgent: a deny's reason goes from the client over
// a real WebSocket to the host, which hands it to the agent with the
// decision, and records it in approval/resolved (issue 25, deny with a
// reason).
func TestDenyReasonReachesTheAgent(t *testing.T) {
	const reason = "use make test instead"
	agent := askingAgent{decided: make(chan model.Decision, 1), answered: make(chan host.Answer, 1)}
	h := startHost(t, host.Options{AgentImpl: agent})
	sid := createSession(t, h.URL(), h.Token(), "deny with a reason")
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)

	c.Submit("run a tool")
	s := waitFor(t, c.Client, "approval", func(s Picture) bool { return len(s.View.Approvals) == 1 })
	c.Deny(s.View.Approvals[0].ApprovalID, reason)
	select {
	case ans := <-agent.answered:
		if ans != (host.Answer{Decision: model.DecisionDeny, Reason: reason}) {
			t.Fatalf("the agent got %+v, want deny with %q", ans, reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the host never resolved the approval; client errors %q", c.Current().Errors)
	}
	s = waitFor(t, c.Client, "resolved and idle", func(s Picture) bool { return len(s.View.Approvals) == 0 && idle(s) })
	if len(s.Errors) != 0 {
		t.Fatalf("client errors %q", s.Errors)
	}
}

// TestDenyReasonRefusals: the host refuses a reason longer than
// model.MaxReasonBytes with an error the client reports, leaving the
// approval waiting; one of exactly the bound is taken.
func TestDenyReasonRefusals(t *testing.T) {
	agent := askingAgent{decided: make(chan model.Decision, 1)}
	h := startHost(t, host.Options{AgentImpl: agent})
	sid := createSession(t, h.URL(), h.Token(), "long reason")
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)
	c.Submit("run a tool")
	s := waitFor(t, c.Client, "approval", func(s Picture) bool { return len(s.View.Approvals) == 1 })
	id := s.View.Approvals[0].ApprovalID

	c.Deny(id, strings.Repeat("x", model.MaxReasonBytes+1))
	s = waitFor(t, c.Client, "the refusal", func(s Picture) bool { return len(s.Errors) > 0 })
	if e := s.Errors[len(s.Errors)-1]; !strings.Contains(e, "reason is 4097 bytes, at most 4096") {
		t.Errorf("error %q, want the reason's length and bound", e)
	}
	if len(s.View.Approvals) != 1 {
		t.Errorf("the approval was resolved by a refused answer")
	}
	c.Deny(id, strings.Repeat("y", model.MaxReasonBytes))
	select {
	case d := <-agent.decided:
		if d != model.DecisionDeny {
			t.Fatalf("the agent got %q, want deny", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("a reason of exactly the bound was not taken; client errors %q", c.Current().Errors)
	}
}

func TestDecideAnswer(t *testing.T) {
	cases := []struct {
		pending, inflight, sent bool
		want                    answerAction
	}{
		{true, false, false, answerSend},
		{true, false, true, answerSend}, // lost with its link: again
		{true, true, true, answerKeep},
		{false, false, true, answerDrop},
		{false, true, true, answerDrop},
		{false, false, false, answerDropUnsent},
	}
	for _, c := range cases {
		if got := decideAnswer(c.pending, c.inflight, c.sent); got != c.want {
			t.Errorf("decideAnswer(pending %v, inflight %v, sent %v) = %v, want %v", c.pending, c.inflight, c.sent, got, c.want)
		}
	}
}
