package model

import (
	"fmt"
	"testing"
)

// rowKeys renders the display order of a view as keys.
func rowKeys(v *View) []string {
	var out []string
	for _, r := range v.Rows() {
		out = append(out, r.Key())
	}
	return out
}

func sameKeys(t *testing.T, got []string, want ...string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
}

func userMsg(id, cid string) string {
	return item(id, KindUserMessage, 1, "completed", fmt.Sprintf(`"text":"hi","commandId":%q`, cid))
}

func TestRulePendingAnchorsAtInsertionAndIsNeverRelocated(t *testing.T) {
	s := fold(t, frame(MethodItemCompleted, 1, 0, item("a", KindAgentMessage, 1, "completed", `"text":"x"`)))
	s.Submit("c1", "first", 0)
	s.Submit("c2", "second", 0)
	sameKeys(t, rowKeys(s.View()), "a", "pending:c1", "pending:c2")
	// Another client's turn streams in: its items land after our entries.
	mustApply(t, s, frame(MethodItemCompleted, 2, 1, userMsg("u-other", "someone-else")))
	mustApply(t, s, frame(MethodItemStarted, 3, 2, item("b", KindAgentMessage, 1, "inProgress", `"text":""`)))
	sameKeys(t, rowKeys(s.View()), "a", "pending:c1", "pending:c2", "u-other", "b")
	if len(s.Pending()) != 2 {
		t.Fatal("a userMessage with no matching entry is another client's and retires nothing")
	}
}

func TestRulePendingRetiresOnCommandIDJoinAtItsOwnPosition(t *testing.T) {
	s := fold(t, frame(MethodItemCompleted, 1, 0, item("a", KindAgentMessage, 1, "completed", `"text":"x"`)))
	s.Submit("c1", "hi", 0)
	mustApply(t, s, frame(MethodItemCompleted, 2, 1, item("b", KindAgentMessage, 1, "completed", `"text":"y"`)))
	s.Ack("c1", "started", "t1")
	mustApply(t, s, frame(MethodTurnStarted, 3, 2, `"turnId":"t1","commandId":"c1","startedAt":"x"`))
	mustApply(t, s, frame(MethodItemCompleted, 4, 3, userMsg("u1", "c1")))
	sameKeys(t, rowKeys(s.View()), "a", "b", "u1")
	r := s.TakeRetirements()
	if len(r) != 1 || r[0].Reason != RetiredJoined || r[0].ItemID != "u1" || r[0].Reason.ReturnsText() {
		t.Fatalf("retirements %+v", r)
	}
}

func TestRulePendingRetiresOnUnqueuedAndReturnsText(t *testing.T) {
	s := fold(t, frame(MethodTurnStarted, 1, 0, `"turnId":"t0","startedAt":"x"`))
	s.Submit("c1", "do the thing", 0)
	s.Ack("c1", "queued", "t1")
	mustApply(t, s, frame(MethodTurnQueued, 2, 1, `"turnId":"t1","commandId":"c1","text":"do the thing","position":1`))
	if p, _ := s.PendingEntry("c1"); p.Status != PendingQueued {
		t.Fatalf("status %s", p.Status)
	}
	mustApply(t, s, frame(MethodTurnUnqueued, 3, 2, `"turnId":"t1","commandId":"c1","reason":"user"`))
	r := s.TakeRetirements()
	if len(r) != 1 || r[0].Reason != RetiredUnqueued || r[0].Text != "do the thing" || !r[0].Reason.ReturnsText() || len(s.Pending()) != 0 {
		t.Fatalf("retirements %+v pending %v", r, s.Pending())
	}
}

func TestRulePendingRetiresOnLaunchFailureOnly(t *testing.T) {
	t.Run("failed with no turn/started", func(t *testing.T) {
		s := NewState(sid)
		s.Submit("c1", "x", 0)
		s.Ack("c1", "queued", "t1")
		mustApply(t, s, frame(MethodTurnCompleted, 1, 0, `"turnId":"t1","status":"failed","error":{"code":"launch","message":"no agent"}`))
		if r := s.TakeRetirements(); len(r) != 1 || r[0].Reason != RetiredLaunchFailed {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("failed after turn/started keeps waiting for the join", func(t *testing.T) {
		s := NewState(sid)
		s.Submit("c1", "x", 0)
		s.Ack("c1", "started", "t1")
		mustApply(t, s, frame(MethodTurnStarted, 1, 0, `"turnId":"t1","commandId":"c1","startedAt":"x"`))
		mustApply(t, s, frame(MethodTurnCompleted, 2, 1, `"turnId":"t1","status":"failed"`))
		if len(s.Pending()) != 1 {
			t.Fatal("a started turn's failure is not a launch failure")
		}
	})
	t.Run("failure of another turn", func(t *testing.T) {
		s := NewState(sid)
		s.Submit("c1", "x", 0)
		s.Ack("c1", "queued", "t1")
		mustApply(t, s, frame(MethodTurnCompleted, 1, 0, `"turnId":"t9","status":"failed"`))
		if len(s.Pending()) != 1 {
			t.Fatal("retired on a foreign turnId")
		}
	})
	t.Run("the failure folded before the ack arrived", func(t *testing.T) {
		s := NewState(sid)
		s.Submit("c1", "x", 0)
		mustApply(t, s, frame(MethodTurnCompleted, 1, 0, `"turnId":"t1","status":"failed"`))
		s.Ack("c1", "queued", "t1")
		if r := s.TakeRetirements(); len(r) != 1 || r[0].Reason != RetiredLaunchFailed {
			t.Fatalf("%+v", r)
		}
	})
}

func TestRulePendingErrorsThatAdmittedNothingKeepTheEntry(t *testing.T) {
	s := NewState(sid)
	s.Submit("c1", "x", 0)
	s.SetPendingStatus("c1", PendingRetrying)
	for i := int64(1); i <= 20; i++ {
		mustApply(t, s, frame(MethodSessionState, i, i-1, fmt.Sprintf(`"title":"t%d"`, i)))
	}
	p, ok := s.PendingEntry("c1")
	if !ok || p.Status != PendingRetrying || len(s.TakeRetirements()) != 0 {
		t.Fatal("an entry must stay pending: the fold never invents a terminal")
	}
	// Giving up returns the text to the composer.
	if !s.Retire("c1", RetiredGaveUp, "host unreachable") {
		t.Fatal("retire")
	}
	if r := s.TakeRetirements(); len(r) != 1 || !r[0].Reason.ReturnsText() || r[0].Detail != "host unreachable" {
		t.Fatalf("%+v", r)
	}
}

func TestRulePendingAckAfterJoinStaysRetired(t *testing.T) {
	s := NewState(sid)
	s.Submit("c1", "x", 0)
	mustApply(t, s, frame(MethodTurnStarted, 1, 0, `"turnId":"t1","commandId":"c1","startedAt":"x"`))
	mustApply(t, s, frame(MethodItemCompleted, 2, 1, userMsg("u1", "c1")))
	s.Ack("c1", "started", "t1")
	s.SetPendingStatus("c1", PendingRetrying)
	if len(s.Pending()) != 0 {
		t.Fatal("a late ack resurrected a joined entry")
	}
}

func TestRuleSnapshotReanchorsPendingInQueuedTurnsOrder(t *testing.T) {
	s := fold(t, frame(MethodItemCompleted, 1, 0, item("a", KindAgentMessage, 1, "completed", `"text":"x"`)))
	s.Submit("c1", "one", 0)   // acked, queued second
	s.Submit("c2", "two", 0)   // acked, queued first
	s.Submit("c3", "three", 0) // acked, its userMessage is in the snapshot
	s.Submit("c4", "four", 0)  // never acked
	s.Submit("c5", "five", 0)  // acked but unknown to the snapshot: replay it
	s.Ack("c1", "queued", "t1")
	s.Ack("c2", "queued", "t2")
	s.Ack("c3", "started", "t3")
	s.Ack("c5", "queued", "t5")

	host := fold(t,
		frame(MethodItemCompleted, 1, 0, item("a", KindAgentMessage, 1, "completed", `"text":"x"`)),
		frame(MethodTurnStarted, 2, 1, `"turnId":"t3","commandId":"c3","startedAt":"x"`),
		frame(MethodItemCompleted, 3, 2, userMsg("u3", "c3")),
		frame(MethodTurnQueued, 4, 3, `"turnId":"t2","commandId":"c2","text":"two"`),
		frame(MethodTurnQueued, 5, 4, `"turnId":"t1","commandId":"c1","text":"one"`),
		frame(MethodItemStarted, 6, 5, item("b", KindAgentMessage, 1, "inProgress", `"text":"streaming"`)),
	)
	replay, err := s.LoadSnapshot(sid, "e2", host.Snapshot(0))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(replay) != "[c5]" {
		t.Fatalf("replay %v", replay)
	}
	sameKeys(t, rowKeys(s.View()), "a", "u3", "b", "pending:c2", "pending:c1", "pending:c4", "pending:c5")
	if r := s.TakeRetirements(); len(r) != 1 || r[0].CommandID != "c3" {
		t.Fatalf("retirements %+v", r)
	}
	// Later events still do not relocate the re-anchored entries.
	mustApply(t, s, frame(MethodItemCompleted, 7, 6, item("c", KindAgentMessage, 1, "completed", `"text":"z"`)))
	sameKeys(t, rowKeys(s.View()), "a", "u3", "b", "pending:c2", "pending:c1", "pending:c4", "pending:c5", "c")
}
