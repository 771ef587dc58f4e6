package host_test

import (
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// TestSessionListSaysWhatNeedsTheUser: session/list names a waiting
// approval ("needs": "approval", with the count) and a last turn that
// failed ("failed"), from the fold; both go once answered or once a turn
// completes again, and a failure outlives a restart of the host.
func TestSessionListSaysWhatNeedsTheUser(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	entry := func(c *hosttest.Client) map[string]any {
		t.Helper()
		var list struct{ Sessions []map[string]any }
		c.MustCall(t, "session/list", nil, &list)
		for _, e := range list.Sessions {
			if e["sessionId"] == sid {
				return e
			}
		}
		t.Fatalf("session/list lacks %s: %v", sid, list.Sessions)
		return nil
	}
	check := func(c *hosttest.Client, when, needs string, approvals float64) {
		t.Helper()
		e := entry(c)
		if got, _ := e["needs"].(string); got != needs {
			t.Errorf("%s: needs %q, want %q (entry %v)", when, got, needs, e)
		}
		if got, _ := e["pendingApprovals"].(float64); got != approvals {
			t.Errorf("%s: pendingApprovals %v, want %v", when, e["pendingApprovals"], approvals)
		}
	}
	turnEnded := func(status string) {
		t.Helper()
		if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
			return ev.Method == model.MethodTurnCompleted && ev.Status == status
		}); err != nil {
			t.Fatal(err)
		}
	}
	check(c, "a new session", "", 0)

	if _, _, err := c.Submit(sid, "c1", "run a tool"); err != nil {
		t.Fatal(err)
	}
	asked, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
	if err != nil {
		t.Fatal(err)
	}
	check(c, "an approval waits", "approval", 1)
	c.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": asked.ApprovalID, "decision": "approve"}, nil)
	turnEnded(model.StatusCompleted)
	check(c, "answered, the turn done", "", 0)

	if _, _, err := c.Submit(sid, "cq", "question"); err != nil {
		t.Fatal(err)
	}
	q, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		return ev.Method == model.MethodItemStarted && ev.Item.Kind == model.KindQuestion
	})
	if err != nil {
		t.Fatal(err)
	}
	check(c, "a question waits", "question", 0)
	c.MustCall(t, "question/respond", map[string]any{"sessionId": sid, "questionId": q.Item.ID, "answer": map[string]any{"selected": []string{"Unit"}}}, nil)
	turnEnded(model.StatusCompleted)
	check(c, "answered, the question's turn done", "", 0)

	if _, _, err := c.Submit(sid, "c2", "fail turn"); err != nil {
		t.Fatal(err)
	}
	turnEnded(model.StatusFailed)
	check(c, "the turn failed", "failed", 0)

	h.Close()
	h = hosttest.Start(t, host.Options{DataDir: dir})
	c2 := hosttest.Dial(t, h)
	check(c2, "after a restart", "failed", 0)

	c = c2
	st, _ = snapshotState(t, c, sid)
	if _, _, err := c.Submit(sid, "c3", "hello"); err != nil {
		t.Fatal(err)
	}
	turnEnded(model.StatusCompleted)
	check(c, "a turn completed since", "", 0)
}
