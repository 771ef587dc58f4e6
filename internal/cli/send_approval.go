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

// checkSendReason reads --reason: what a deny tells the agent to do
// instead. It goes only with --on-approval deny, and is at most
// model.MaxReasonBytes (what the host takes); anything else is a usage
// error.
func checkSendReason(onApproval, reason string) error {
	switch {
	case reason == "":
		return nil
	case onApproval != string(model.DecisionDeny):
		return fmt.Errorf("--reason goes with --on-approval deny, not %q", onApproval)
	case len(reason) > model.MaxReasonBytes:
		return fmt.Errorf("--reason is %d bytes, at most %d", len(reason), model.MaxReasonBytes)
	}
	return nil
}
