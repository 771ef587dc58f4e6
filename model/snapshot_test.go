package model

import "testing"

// An approval whose options are not an array (a host bug) still loads
// back from the State's own snapshot: its other members are kept.
func TestSnapshotKeepsAnApprovalWithMalformedOptions(t *testing.T) {
	src := fold(t, frame(MethodApprovalRequested, 1, 0, `"approvalId":"a1","turnId":"t1","options":"approve"`))
	s := NewState(sid)
	if _, err := s.LoadSnapshot(sid, "e1", src.Snapshot(0)); err != nil {
		t.Fatal(err)
	}
	if a := s.View().Approvals; len(a) != 1 || a[0].ApprovalID != "a1" || a[0].TurnID != "t1" || len(a[0].Options) != 0 {
		t.Fatalf("approvals after the snapshot: %+v", a)
	}
}
