package host_test

import (
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

type replayAnswer struct {
	State      string           `json:"state"`
	TurnID     *string          `json:"turnId"`
	Settlement map[string]any   `json:"settlement"`
	TurnStatus string           `json:"turnStatus"`
	TurnError  *model.TurnError `json:"turnError"`
}

// command/replay tells the outcome of a settled command's turn once it
// ended (turnStatus, turnError), and nothing while it runs: a client that
// learnt of the end only through a snapshot can still know it.
func TestReplayTellsTheTurnOutcome(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)

	runTurn(t, c, sid, st, "ok", "hello")
	if r := replay(t, c, sid, "ok"); r.State != "settled" || r.TurnStatus != model.StatusCompleted || r.TurnError != nil {
		t.Fatalf("replay of a completed turn = %+v", r)
	}
	runTurn(t, c, sid, st, "bad", "fail turn please")
	if r := replay(t, c, sid, "bad"); r.TurnStatus != model.StatusFailed || r.TurnError == nil || r.TurnError.Code != "modelError" {
		t.Fatalf("replay of a failed turn = %+v", r)
	}
	if _, _, err := c.Submit(sid, "nolaunch", "launch fail"); err != nil {
		t.Fatal(err)
	}
	if r := replay(t, c, sid, "nolaunch"); r.Settlement["kind"] != "launchFailed" || r.TurnStatus != model.StatusFailed {
		t.Fatalf("replay of a failed launch = %+v", r)
	}
	_, slow, _ := c.Submit(sid, "running", "slow please")
	if r := replay(t, c, sid, "running"); r.State != "settled" || r.TurnStatus != "" || r.TurnError != nil {
		t.Fatalf("replay of a running turn = %+v", r)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slow}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(slow)); err != nil {
		t.Fatal(err)
	}
	if r := replay(t, c, sid, "running"); r.TurnStatus != model.StatusStopped {
		t.Fatalf("replay of an interrupted turn = %+v", r)
	}
	if r := replay(t, c, sid, "never"); r.State != "unknown" || r.TurnStatus != "" {
		t.Fatalf("replay of an unknown command = %+v", r)
	}
}

func replay(t *testing.T, c *hosttest.Client, sid, cid string) replayAnswer {
	t.Helper()
	var r replayAnswer
	c.MustCall(t, "command/replay", map[string]any{"sessionId": sid, "commandId": cid}, &r)
	return r
}

func TestSubmitIsIdempotentByCommandID(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)

	s1, turn1, err := c.Submit(sid, "same", "hello")
	if err != nil {
		t.Fatal(err)
	}
	s2, turn2, err := c.Submit(sid, "same", "hello again, different text")
	if err != nil {
		t.Fatal(err)
	}
	if s1 != "started" || s2 != s1 || turn2 != turn1 {
		t.Fatalf("answers differ: %s/%s then %s/%s", s1, turn1, s2, turn2)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn1)); err != nil {
		t.Fatal(err)
	}
	// After the turn: still the first answer, and still one turn.
	s3, turn3, err := c.Submit(sid, "same", "hello")
	if err != nil || s3 != "started" || turn3 != turn1 {
		t.Fatalf("third answer %s/%s %v", s3, turn3, err)
	}
	// A queued command too: its repeat answers queued with the same turn.
	_, slowTurn, _ := c.Submit(sid, "slow", "slow please")
	q1, qTurn1, _ := c.Submit(sid, "queued", "next")
	q2, qTurn2, _ := c.Submit(sid, "queued", "next")
	if q1 != "queued" || q2 != "queued" || qTurn1 != qTurn2 {
		t.Fatalf("queued answers %s/%s then %s/%s", q1, qTurn1, q2, qTurn2)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slowTurn}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(qTurn1)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range itemsOfKind(st, model.KindUserMessage) {
		if it.CommandID() == "same" || it.CommandID() == "queued" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d userMessages for two commandIds submitted twice each", n)
	}
	if r := replay(t, c, sid, "same"); r.State != "settled" || r.Settlement["kind"] != "userMessage" || r.Settlement["itemId"] == "" {
		t.Fatalf("replay same = %+v", r)
	}
}

func TestQueueUnqueueAndInterrupt(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)

	_, slow, _ := c.Submit(sid, "c-slow", "slow answer")
	// Wait for the slow answer to be streaming.
	if _, _, err := c.WaitEvent(st, func(ev *model.Event) bool {
		return ev.Method == model.MethodItemDelta && st.Item(ev.ItemID) != nil && st.Item(ev.ItemID).Kind == model.KindAgentMessage
	}); err != nil {
		t.Fatal(err)
	}
	sa, ta, _ := c.Submit(sid, "c-a", "first queued")
	sb, tb, _ := c.Submit(sid, "c-b", "second queued")
	if sa != "queued" || sb != "queued" {
		t.Fatalf("statuses %s %s", sa, sb)
	}
	if r := replay(t, c, sid, "c-b"); r.State != "queued" || r.TurnID == nil || *r.TurnID != tb {
		t.Fatalf("replay queued = %+v", r)
	}
	c.MustCall(t, "turn/unqueue", map[string]any{"sessionId": sid, "commandId": "c-b"}, nil)
	ev, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodTurnUnqueued })
	if err != nil || ev.CommandID != "c-b" || ev.TurnID != tb {
		t.Fatalf("unqueued = %+v %v", ev, err)
	}
	if len(st.QueuedTurns()) != 1 || st.QueuedTurns()[0].TurnID != ta {
		t.Fatalf("queue after unqueue = %+v", st.QueuedTurns())
	}
	// Unqueue again: idempotent. Unqueue a running command: refused.
	c.MustCall(t, "turn/unqueue", map[string]any{"sessionId": sid, "commandId": "c-b"}, nil)
	if e := rpcCode(t, c, "turn/unqueue", map[string]any{"sessionId": sid, "commandId": "c-slow"}); e == nil || e.Code != model.CodeInvalidParams {
		t.Fatalf("unqueue of a started command = %+v", e)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slow}, nil)
	ev, _, err = c.WaitEvent(st, hosttest.TurnCompleted(slow))
	if err != nil || ev.Status != model.StatusStopped {
		t.Fatalf("interrupted turn = %+v %v", ev, err)
	}
	for _, it := range st.Items() {
		if it.TurnID == slow && it.Kind != model.KindUserMessage && it.Kind != model.KindReasoning && it.Status != model.StatusStopped {
			t.Fatalf("item %s of the interrupted turn is %s", it.Kind, it.Status)
		}
		if it.IsOpen() {
			t.Fatalf("item %s left open", it.ID)
		}
	}
	// The queued turn runs next.
	ev, _, err = c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodTurnStarted })
	if err != nil || ev.TurnID != ta || ev.CommandID != "c-a" {
		t.Fatalf("next started = %+v %v", ev, err)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(ta)); err != nil {
		t.Fatal(err)
	}
	if r := replay(t, c, sid, "c-b"); r.State != "settled" || r.Settlement["kind"] != "unqueued" {
		t.Fatalf("replay unqueued = %+v", r)
	}
	if r := replay(t, c, sid, "never"); r.State != "unknown" || r.TurnID != nil || r.Settlement != nil {
		t.Fatalf("replay unknown = %+v", r)
	}
	// Interrupting a finished turn is a no-op; an unknown turn is an error.
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slow}, nil)
	if e := rpcCode(t, c, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": "nope"}); e == nil || e.Code != model.CodeInvalidParams {
		t.Fatalf("interrupt unknown = %+v", e)
	}
	if !st.Idle() {
		t.Fatal("session not idle")
	}
}

func TestInterruptQueuedTurnUnqueuesIt(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, slow, _ := c.Submit(sid, "s", "slow")
	_, q, _ := c.Submit(sid, "q", "queued one")
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": q}, nil)
	ev, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodTurnUnqueued })
	if err != nil || ev.TurnID != q {
		t.Fatalf("%+v %v", ev, err)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slow}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(slow)); err != nil {
		t.Fatal(err)
	}
}

func TestApprovalApproveAndDeny(t *testing.T) {
	for _, decision := range []string{"approve", "deny"} {
		t.Run(decision, func(t *testing.T) {
			h := hosttest.Start(t, host.Options{})
			c := hosttest.Dial(t, h)
			sid, _, st := newSession(t, c)
			_, turn, _ := c.Submit(sid, "t", "run a tool")
			ev, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
			if err != nil {
				t.Fatal(err)
			}
			tool := st.Item(ev.ItemID)
			if tool == nil || tool.Status != model.StatusWaitingUser || tool.InputText() != `{"command":"go test ./...","cwd":"."}` {
				t.Fatalf("tool before approval = %s", tool.AppendJSON(nil))
			}
			if e := rpcCode(t, c, "approval/respond", map[string]any{"sessionId": sid, "approvalId": ev.ApprovalID, "decision": "maybe"}); e == nil || e.Code != model.CodeInvalidParams {
				t.Fatalf("bad decision = %+v", e)
			}
			c.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": ev.ApprovalID, "decision": decision}, nil)
			c.MustCall(t, "approval/respond", map[string]any{"sessionId": sid, "approvalId": ev.ApprovalID, "decision": decision}, nil) // idempotent
			if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
				t.Fatal(err)
			}
			tool = st.Item(tool.ID)
			if decision == "approve" {
				code, ok := tool.ExitCode()
				if tool.Status != model.StatusCompleted || !ok || code != 0 || tool.Output() == "" {
					t.Fatalf("approved tool = %s", tool.AppendJSON(nil))
				}
			} else if tool.Status != model.StatusFailed || tool.ErrorMessage() == "" || tool.Output() != "" {
				t.Fatalf("denied tool = %s", tool.AppendJSON(nil))
			}
			if d := st.TakeDiagnostics(); len(d) > 0 {
				t.Fatalf("fold diagnostics: %+v", d)
			}
			if len(st.View().Approvals) != 0 {
				t.Fatal("approval still pending")
			}
			if e := rpcCode(t, c, "approval/respond", map[string]any{"sessionId": sid, "approvalId": "unknown", "decision": "approve"}); e == nil || e.Code != model.CodeInvalidParams {
				t.Fatalf("unknown approval = %+v", e)
			}
		})
	}
}

func TestInterruptWhileWaitingForApprovalCancelsIt(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, turn, _ := c.Submit(sid, "t", "tool")
	ev, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
	if err != nil {
		t.Fatal(err)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": turn}, nil)
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
	if len(st.View().Approvals) != 0 || st.Item(ev.ItemID).Status != model.StatusStopped {
		t.Fatalf("approvals %v, tool %s", st.View().Approvals, st.Item(ev.ItemID).Status)
	}
}

func TestLaunchFailureAndRejections(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	status, turn, err := c.Submit(sid, "lf", "please launch fail")
	if err != nil {
		t.Fatal(err)
	}
	ev, seen, err := c.WaitEvent(st, hosttest.TurnCompleted(turn))
	if err != nil || ev.Status != model.StatusFailed || ev.TurnError == nil || ev.TurnError.Code != "launchFailed" {
		t.Fatalf("%s: %+v %v", status, ev, err)
	}
	for _, e := range seen {
		if e.Method == model.MethodTurnStarted {
			t.Fatal("a failed launch emitted turn/started")
		}
	}
	if r := replay(t, c, sid, "lf"); r.State != "settled" || r.Settlement["kind"] != "launchFailed" {
		t.Fatalf("replay = %+v", r)
	}
	e := rpcCode(t, c, "turn/submit", map[string]any{"sessionId": sid, "commandId": "empty", "text": ""})
	if e == nil || e.Code != model.CodeRejected {
		t.Fatalf("empty text = %+v", e)
	}
	var data struct{ Reason string }
	if err := json.Unmarshal(e.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Reason != "emptyText" {
		t.Fatalf("data = %s", e.Data)
	}
	if r := replay(t, c, sid, "empty"); r.State != "settled" || r.Settlement["kind"] != "rejected" || r.Settlement["reason"] != "emptyText" {
		t.Fatalf("replay rejected = %+v", r)
	}
	// A rejected commandId stays rejected.
	if e := rpcCode(t, c, "turn/submit", map[string]any{"sessionId": sid, "commandId": "empty", "text": "now with text"}); e == nil || e.Code != model.CodeRejected {
		t.Fatalf("resubmit rejected = %+v", e)
	}
}

func TestBackpressureWhenTheQueueIsFull(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true})
	c := hosttest.Dial(t, h)
	sid, _, _ := newSession(t, c)
	_, slow, _ := c.Submit(sid, "slow", "slow")
	for i := range host.MaxQueuedTurns {
		if s, _, err := c.Submit(sid, "q"+string(rune('A'+i%26))+string(rune('a'+i/26)), "queued"); err != nil || s != "queued" {
			t.Fatalf("submit %d: %s %v", i, s, err)
		}
	}
	e := rpcCode(t, c, "turn/submit", map[string]any{"sessionId": sid, "commandId": "one-too-many", "text": "x"})
	if e == nil || e.Code != model.CodeBackpressured {
		t.Fatalf("65th queued = %+v", e)
	}
	if r := replay(t, c, sid, "one-too-many"); r.State != "unknown" {
		t.Fatalf("a backpressured command was admitted: %+v", r)
	}
	c.MustCall(t, "turn/interrupt", map[string]any{"sessionId": sid, "turnId": slow}, nil)
}
