package tui

import (
	"context"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

// askingAgent runs one tool per turn that asks for approval, offering
// approveForSession, and reports the decision it got on decided (and a
// deny's reason on reasons, when set).
type askingAgent struct {
	decided chan model.Decision
	reasons chan string
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
	d := ans.Decision
	if a.reasons != nil && d == model.DecisionDeny {
		a.reasons <- ans.Reason
	}
	a.decided <- d
	if d == model.DecisionDeny {
		return t.CompleteItem(id, model.StatusFailed, map[string]any{"error": "denied"})
	}
	if err := t.UpdateItem(id, model.StatusRunning, nil); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusCompleted, map[string]any{"exitCode": 0})
}

// TestApprovalKeysReachTheHost: each approval key, pressed in the UI over
// a real client and host, resolves the approval with its decision (issue
// 25, 1: approve for the session never reached the host); a deny asks for
// its reason, which reaches the agent with it (issue 25, deny with a
// reason).
func TestApprovalKeysReachTheHost(t *testing.T) {
	agent := askingAgent{decided: make(chan model.Decision, 1), reasons: make(chan string, 1)}
	h := hosttest.Start(t, host.Options{Ephemeral: true, AgentImpl: agent})
	rc := hosttest.Dial(t, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	rc.MustCall(t, "session/create", map[string]any{"title": "approvals"}, &created)
	rc.Close()
	c, _ := runSource(t, sync.Options{URL: h.URL(), Token: h.Token(), SessionID: created.SessionID, CacheDir: "-"})
	waitSource(t, c, "live", func(p sync.Picture) bool { return p.Freshness.State == sync.Live })
	d := newDriver(t, 100, 30, Options{Source: c})

	cases := []struct {
		keys []string
		want model.Decision
	}{
		{[]string{"alt+a"}, model.DecisionApprove},
		{[]string{"alt+d", "enter"}, model.DecisionDeny},
		{[]string{"alt+s"}, model.DecisionApproveForSession},
		{[]string{"tab", "a"}, model.DecisionApprove},
		{[]string{"tab", "d", "u", "s", "e", " ", "m", "a", "k", "e", "enter"}, model.DecisionDeny},
		{[]string{"tab", "s"}, model.DecisionApproveForSession},
	}
	for _, tc := range cases {
		d.m.focusComposer()
		d.typeText("run a tool")
		d.keys("enter")
		paint(t, d, c, "the approval bar", func() bool { return d.lineOf("Approval needed") >= 0 })
		d.keys(tc.keys...)
		select {
		case got := <-agent.decided:
			if got != tc.want {
				t.Fatalf("%v: the host resolved %q, want %q", tc.keys, got, tc.want)
			}
			if got == model.DecisionDeny {
				want := ""
				if len(tc.keys) > 2 {
					want = "use make"
				}
				if r := <-agent.reasons; r != want {
					t.Fatalf("%v: the agent was told %q, want %q", tc.keys, r, want)
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: the host never resolved the approval; client errors %q", tc.keys, c.Current().Errors)
		}
		waitSource(t, c, "idle", func(p sync.Picture) bool {
			return p.View.ActiveTurn == nil && len(p.View.QueuedTurns) == 0 && len(p.View.Pending) == 0
		})
	}
}

// TestOfflineAnswerStaysPendingUntilSent: an approval answered while the
// host is unreachable is not claimed as done: the notice and the approval
// bar say it is not sent yet, and it reaches the host once the connection
// is back (issue 25, 2).
func TestOfflineAnswerStaysPendingUntilSent(t *testing.T) {
	agent := askingAgent{decided: make(chan model.Decision, 1)}
	h := hosttest.Start(t, host.Options{Ephemeral: true, AgentImpl: agent})
	rc := hosttest.Dial(t, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	rc.MustCall(t, "session/create", map[string]any{"title": "offline"}, &created)
	rc.Close()
	p := hosttest.NewProxy(t, h.Addr(), 3)
	c, _ := runSource(t, sync.Options{URL: p.URL(), Token: h.Token(), SessionID: created.SessionID, CacheDir: "-"})
	waitSource(t, c, "live", func(p sync.Picture) bool { return p.Freshness.State == sync.Live })
	d := newDriver(t, 120, 30, Options{Source: c})
	d.typeText("run a tool")
	d.keys("enter")
	paint(t, d, c, "the approval bar", func() bool { return d.lineOf("Approval needed") >= 0 })

	p.Refuse(true)
	p.KillAll()
	waitSource(t, c, "offline", func(p sync.Picture) bool { return p.Freshness.State != sync.Live })
	d.pull()
	d.keys("alt+s")
	d.wantScreen("not sent yet (offline): approval for the session goes to the host once it is back")
	d.noScreen("approved for the session:")
	paint(t, d, c, "the bar saying the answer waits", func() bool {
		return d.lineOf("Approval needed") >= 0 && d.lineOf("alt+a approve") < 0
	})

	p.Refuse(false)
	c.Retry()
	select {
	case got := <-agent.decided:
		if got != model.DecisionApproveForSession {
			t.Fatalf("the host resolved %q, want approveForSession", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the answer never reached the host; client errors %q", c.Current().Errors)
	}
	paint(t, d, c, "the approval gone", func() bool { return d.lineOf("Approval needed") < 0 })
}
