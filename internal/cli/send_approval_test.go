package cli

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestOnApprovalDecision(t *testing.T) {
	cases := []struct {
		flag    string
		want    model.Decision
		ask, ok bool
	}{
		{"ask", "", true, true},
		{"approve", model.DecisionApprove, false, true},
		{"deny", model.DecisionDeny, false, true},
		{"approveForSession", "", false, false}, // not for a one-shot command
		{"cancelled", "", false, false},
		{"", "", false, false},
	}
	for _, c := range cases {
		d, ask, err := onApprovalDecision(c.flag)
		if d != c.want || ask != c.ask || (err == nil) != c.ok {
			t.Errorf("onApprovalDecision(%q) = %q, %v, %v; want %q, %v, ok %v", c.flag, d, ask, err, c.want, c.ask, c.ok)
		}
	}
}

func TestCheckSendReason(t *testing.T) {
	cases := []struct {
		onApproval, reason string
		ok                 bool
	}{
		{"deny", "use make test instead", true},
		{"deny", "", true},
		{"approve", "", true},
		{"ask", "", true},
		{"approve", "why not", false},
		{"ask", "later", false},
		{"deny", strings.Repeat("x", model.MaxReasonBytes), true},
		{"deny", strings.Repeat("x", model.MaxReasonBytes+1), false},
	}
	for _, c := range cases {
		if err := checkSendReason(c.onApproval, c.reason); (err == nil) != c.ok {
			t.Errorf("checkSendReason(%q, %d bytes) = %v, want ok %v", c.onApproval, len(c.reason), err, c.ok)
		}
	}
}
