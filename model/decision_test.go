package model

import "testing"

func TestDecisionIsAnswer(t *testing.T) {
	cases := []struct {
		d    Decision
		want bool
	}{
		{DecisionApprove, true},
		{DecisionDeny, true},
		{DecisionApproveForSession, true},
		{DecisionCancelled, false},
		{"", false},
		{"maybe", false},
		{"Approve", false},
	}
	for _, c := range cases {
		if got := c.d.IsAnswer(); got != c.want {
			t.Errorf("%q.IsAnswer() = %v, want %v", c.d, got, c.want)
		}
	}
}

func TestApprovalOffers(t *testing.T) {
	plain := Approval{}
	forSession := Approval{Options: []string{"approve", "approveForSession", "deny"}}
	denyOnly := Approval{Options: []string{"deny"}}
	cases := []struct {
		name string
		a    Approval
		d    Decision
		want bool
	}{
		{"no options: approve", plain, DecisionApprove, true},
		{"no options: deny", plain, DecisionDeny, true},
		{"no options: not for the session", plain, DecisionApproveForSession, false},
		{"offered for the session", forSession, DecisionApproveForSession, true},
		{"listed deny only: no approve", denyOnly, DecisionApprove, false},
		{"never cancelled", forSession, DecisionCancelled, false},
	}
	for _, c := range cases {
		if got := c.a.Offers(c.d); got != c.want {
			t.Errorf("%s: Offers(%q) = %v, want %v", c.name, c.d, got, c.want)
		}
	}
}

func TestReasonAllowed(t *testing.T) {
	cases := []struct {
		d      Decision
		reason string
		want   bool
	}{
		{DecisionDeny, "use make test instead", true},
		{DecisionDeny, "", true},
		{DecisionApprove, "", true},
		{DecisionApprove, "fine", false},
		{DecisionApproveForSession, "always", false},
	}
	for _, c := range cases {
		if got := ReasonAllowed(c.d, c.reason); got != c.want {
			t.Errorf("ReasonAllowed(%q, %q) = %v, want %v", c.d, c.reason, got, c.want)
		}
	}
}
