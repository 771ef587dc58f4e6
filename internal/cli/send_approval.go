package cli

import (
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// onApprovalAsk is --on-approval's default: send answers no approval
// itself and waits for someone to answer it elsewhere.
const onApprovalAsk = "ask"

// onApprovalDecision reads --on-approval: "ask" gives no decision (ask is
// true); "approve" and "deny" are the decision send gives every approval
// itself. Anything else is a usage error.
func onApprovalDecision(flag string) (d model.Decision, ask bool, err error) {
	switch d := model.Decision(flag); {
	case flag == onApprovalAsk:
		return "", true, nil
	case d == model.DecisionApprove || d == model.DecisionDeny:
		return d, false, nil
	}
	return "", false, fmt.Errorf("--on-approval is ask, approve or deny, not %q", flag)
}

// answering says what send is doing to an approval ("approving").
func answering(d model.Decision) string {
	if d == model.DecisionDeny {
		return "denying"
	}
	return "approving"
}
