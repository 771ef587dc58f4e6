package sync

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// rawSubmit submits through the raw peer and returns the turn id.
func rawSubmit(t *testing.T, r *rawRPC, sid, text string) (cid, turnID string) {
	t.Helper()
	cid = uuid.NewString()
	var a struct {
		Status string `json:"status"`
		TurnID string `json:"turnId"`
	}
	if err := json.Unmarshal(r.call("turn/submit", map[string]string{"sessionId": sid, "commandId": cid, "text": text}), &a); err != nil {
		t.Fatal(err)
	}
	return cid, a.TurnID
}

func pendingStatus(s Picture, cid string) model.PendingStatus {
	for _, p := range s.View.Pending {
		if p.CommandID == cid {
			return p.Status
		}
	}
	return ""
}

// TestBackpressureRetriesThenGivesUp fills the host's queue: a submission
// answered -32001 stays pending (retrying) and is retried with the same
// commandId; once there is room it is admitted and runs exactly once. A
// client that runs out of attempts returns the text to the composer.
func TestBackpressureRetriesThenGivesUp(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "backpressure")
	r := dialRaw(t, h.URL(), h.Token())
	defer r.close()
	_, slowTurn := rawSubmit(t, r, sid, "slow: hold the session")
	var queued []string
	for i := range host.MaxQueuedTurns {
		cid, _ := rawSubmit(t, r, sid, fmt.Sprintf("queued %d", i))
		queued = append(queued, cid)
	}

	quitter := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, MaxSubmitAttempts: 2})
	lost := quitter.Submit("this one gives up")
	s := waitFor(t, quitter.Client, "text returned to the composer", func(s Picture) bool { return len(s.Returned) == 1 })
	if got := s.Returned[0]; got.CommandID != lost || got.Text != "this one gives up" || got.Reason != model.RetiredGaveUp || s.ReturnedBase != 1 {
		t.Fatalf("returned %+v (base %d)", got, s.ReturnedBase)
	}
	if len(s.View.Pending) != 0 {
		t.Fatal("a given-up entry stayed pending")
	}
	if quitter.stats.submits.Load() != 2 {
		t.Fatalf("sent %d times, want exactly MaxSubmitAttempts=2", quitter.stats.submits.Load())
	}

	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid, MaxSubmitAttempts: 1000})
	mine := c.Submit("mine, after the backpressure")
	waitFor(t, c.Client, "retrying", func(s Picture) bool { return pendingStatus(s, mine) == model.PendingRetrying })
	r.call("turn/unqueue", map[string]string{"sessionId": sid, "commandId": queued[0]})
	waitFor(t, c.Client, "admitted as queued", func(s Picture) bool { return pendingStatus(s, mine) == model.PendingQueued })
	r.call("turn/interrupt", map[string]string{"sessionId": sid, "turnId": slowTurn})
	s = waitFor(t, c.Client, "all turns done", func(s Picture) bool { return idle(s) && userMessages(s.View)[mine] == 1 })
	checkTranscript(t, s.View)
	sameAsHost(t, c.Client, h.URL(), h.Token(), sid)
	if r, ok := c.Settlement(lost); ok {
		t.Fatalf("another client's settlement leaked: %+v", r)
	}
	if n := userMessages(s.View)[lost]; n != 0 {
		t.Fatalf("the given-up prompt ran %d times", n)
	}
}

// TestUnqueueInterruptApproveDeny drives the other commands.
func TestUnqueueInterruptApproveDeny(t *testing.T) {
	h := startHost(t, host.Options{Pace: time.Millisecond})
	sid := createSession(t, h.URL(), h.Token(), "commands")
	c := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)

	slow := c.Submit("slow: until interrupted")
	waitFor(t, c.Client, "slow started", func(s Picture) bool { return s.View.ActiveTurn != nil })
	later := c.Submit("take me back")
	waitFor(t, c.Client, "queued", func(s Picture) bool { return pendingStatus(s, later) == model.PendingQueued })
	c.Unqueue(later)
	s := waitFor(t, c.Client, "unqueued text returned", func(s Picture) bool { return len(s.Returned) == 1 })
	if s.Returned[0].Text != "take me back" || s.Returned[0].Reason != model.RetiredUnqueued {
		t.Fatalf("returned %+v", s.Returned[0])
	}
	c.Interrupt()
	s = waitFor(t, c.Client, "interrupted", func(s Picture) bool { return idle(s) })
	if lt := s.View.LastTurn; lt == nil || lt.Status != model.StatusStopped {
		t.Fatalf("last turn %+v, want stopped", lt)
	}

	deny := c.Submit("run a tool, which I will deny")
	s = waitFor(t, c.Client, "approval", func(s Picture) bool { return len(s.View.Approvals) == 1 })
	c.Respond(s.View.Approvals[0].ApprovalID, "deny")
	s = waitFor(t, c.Client, "denied", func(s Picture) bool { return idle(s) && userMessages(s.View)[deny] == 1 })
	failedTool := false
	for _, it := range s.View.Items {
		if it.Kind == model.KindToolCall && it.TurnID != "" && it.Status == model.StatusFailed {
			failedTool = true
		}
	}
	if !failedTool {
		t.Fatal("a denied tool call did not fail")
	}

	launch := c.Submit("launch fail, please")
	waitFor(t, c.Client, "launch failure settles", func(Picture) bool {
		r, ok := c.Settlement(launch)
		return ok && r.Reason == model.RetiredLaunchFailed
	})
	c.Respond("nope", "maybe")
	waitFor(t, c.Client, "bad decision reported", func(s Picture) bool { return hasErr(s, "approve, deny or approveForSession") })
	s = waitFor(t, c.Client, "idle", idle)
	checkTranscript(t, s.View)
	for _, cid := range []string{slow, deny} {
		if userMessages(s.View)[cid] != 1 {
			t.Fatalf("prompt %s not folded once", cid)
		}
	}
	sameAsHost(t, c.Client, h.URL(), h.Token(), sid)
}

// TestRefusals: a bad token and an unknown session are errors, with the
// reason a program needs.
func TestRefusals(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "refusals")
	bad := fastClient(t, Options{URL: h.URL(), Token: "wrong", SessionID: sid})
	s := waitFor(t, bad.Client, "auth error", func(s Picture) bool { return s.Freshness.State == Error })
	if s.Freshness.Reason != ReasonAuth {
		t.Fatalf("bad token: %+v", s.Freshness)
	}
	gone := fastClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: "no-such-session"})
	s = waitFor(t, gone.Client, "unknown session", func(s Picture) bool { return s.Freshness.State == Error })
	if s.Freshness.Reason != ReasonNoSession {
		t.Fatalf("unknown session: %+v", s.Freshness)
	}
	// An unknown session is final: no background retry (nosession_test.go).
	if !s.Freshness.NextAttempt.IsZero() {
		t.Fatalf("unknown session: a retry is scheduled: %+v", s.Freshness)
	}
	// Other refusals retry in the background, silently: still the same
	// error, not reconnecting, after further attempts.
	waitFor(t, bad.Client, "a later attempt", func(s Picture) bool { return s.Freshness.Attempt >= 3 })
	if f := bad.Current().Freshness; f.State != Error || f.Reason != ReasonAuth {
		t.Fatalf("background retry changed the state: %+v", f)
	}
	if _, err := ListSessions(t.Context(), Options{URL: h.URL(), Token: "wrong"}); err == nil {
		t.Fatal("ListSessions with a bad token succeeded")
	} else if ce := (*ConnectError)(nil); !errors.As(err, &ce) || ce.Status != 401 {
		t.Fatalf("ListSessions error %T %v", err, err)
	}
	ss, err := ListSessions(t.Context(), Options{URL: h.URL(), Token: h.Token()})
	if err != nil || len(ss) != 1 || ss[0].SessionID != sid || ss[0].Title != "refusals" {
		t.Fatalf("ListSessions: %+v %v", ss, err)
	}
	// No session given: the client follows the most recent one.
	pick := fastClient(t, Options{URL: h.URL(), Token: h.Token()})
	if s := waitFor(t, pick.Client, "live", isLive); s.SessionID != sid {
		t.Fatalf("picked %q", s.SessionID)
	}
}

// ReplayCommand asks the host how a command stands, with its turn's
// outcome once the turn ended; without a connection it says so at once.
func TestReplayCommandTellsTheTurnOutcome(t *testing.T) {
	h := startHost(t, host.Options{})
	sid := createSession(t, h.URL(), h.Token(), "replay")
	c := runClient(t, Options{URL: h.URL(), Token: h.Token(), SessionID: sid})
	waitFor(t, c.Client, "live", isLive)
	ok := c.Submit("hello")
	waitFor(t, c.Client, "the turn ran", func(s Picture) bool {
		_, settled := c.Settlement(ok)
		return settled && idle(s)
	})
	bad := c.Submit("fail turn, please")
	waitFor(t, c.Client, "the failed turn ran", func(s Picture) bool {
		_, settled := c.Settlement(bad)
		return settled && idle(s)
	})
	ctx, cancel := contextWithTimeout()
	defer cancel()
	st, err := c.ReplayCommand(ctx, ok)
	if err != nil || st.State != "settled" || st.Settlement != "userMessage" || st.ItemID == "" || st.TurnID == "" || st.TurnStatus != model.StatusCompleted || st.TurnError != nil {
		t.Fatalf("completed turn: %+v %v", st, err)
	}
	st, err = c.ReplayCommand(ctx, bad)
	if err != nil || st.TurnStatus != model.StatusFailed || st.TurnError == nil || st.TurnError.Code != "modelError" {
		t.Fatalf("failed turn: %+v %v", st, err)
	}
	if st, err = c.ReplayCommand(ctx, "never-sent"); err != nil || st.State != "unknown" || st.TurnStatus != "" {
		t.Fatalf("unknown command: %+v %v", st, err)
	}

	h.Close()
	waitFor(t, c.Client, "offline", func(s Picture) bool { return s.Freshness.State == Reconnecting })
	if _, err := c.ReplayCommand(ctx, ok); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("offline: %v, want ErrNotConnected", err)
	}
}
