package cli

import (
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
