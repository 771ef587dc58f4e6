package host_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// TestApprovalRespondReason: approval/respond takes an optional reason
// with a deny and records it in approval/resolved; a reason with another
// decision, or one longer than model.MaxReasonBytes, is invalid params
// whose data.reason names the cause, and the approval keeps waiting.
func TestApprovalRespondReason(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	_, turn, _ := c.Submit(sid, "t", "run a tool")
	ev, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested })
	if err != nil {
		t.Fatal(err)
	}
	respond := func(decision, reason string) *model.RPCError {
		return rpcCode(t, c, "approval/respond", map[string]any{"sessionId": sid, "approvalId": ev.ApprovalID, "decision": decision, "reason": reason})
	}
	refusals := []struct {
		name, decision, reason, cause string
	}{
		{"with approve", "approve", "fine by me", "reasonNotDeny"},
		{"too long", "deny", strings.Repeat("é", model.MaxReasonBytes/2+1), "reasonTooLong"},
	}
	for _, r := range refusals {
		e := respond(r.decision, r.reason)
		if e == nil || e.Code != model.CodeInvalidParams {
			t.Fatalf("%s: answer %+v, want invalid params", r.name, e)
		}
		var data struct {
			Reason   string `json:"reason"`
			MaxBytes int    `json:"maxBytes"`
		}
		if json.Unmarshal(e.Data, &data) != nil || data.Reason != r.cause {
			t.Errorf("%s: data %s, want reason %q", r.name, e.Data, r.cause)
		}
		if r.cause == "reasonTooLong" && data.MaxBytes != model.MaxReasonBytes {
			t.Errorf("%s: data %s, want maxBytes %d", r.name, e.Data, model.MaxReasonBytes)
		}
	}
	if len(st.View().Approvals) != 1 {
		t.Fatal("a refused answer resolved the approval")
	}
	const reason = "run go vet first"
	if e := respond("deny", reason); e != nil {
		t.Fatalf("deny with a reason: %+v", e)
	}
	res, _, err := c.WaitEvent(st, func(ev *model.Event) bool { return ev.Method == model.MethodApprovalResolved })
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != "deny" || res.Reason != reason {
		t.Errorf("resolved %q with reason %q, want deny with %q", res.Decision, res.Reason, reason)
	}
	if _, _, err := c.WaitEvent(st, hosttest.TurnCompleted(turn)); err != nil {
		t.Fatal(err)
	}
}
