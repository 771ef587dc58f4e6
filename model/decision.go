package model

import "slices"

// Decision is an answer to an approval: what approval/respond sends, what
// approval/requested offers in its options and what approval/resolved
// records. Every layer (host, bridges, sync, tui, cli) spells decisions
// with these constants.
type Decision string

const (
	// DecisionApprove runs the tool this once.
	DecisionApprove Decision = "approve"
	// DecisionDeny refuses it.
	DecisionDeny Decision = "deny"
	// DecisionApproveForSession runs it and the like of it for the rest of
	// the session; offered only by agents that can remember that.
	DecisionApproveForSession Decision = "approveForSession"
	// DecisionCancelled is the host's own resolution of an approval nobody
	// answered (the turn ended, or the agent withdrew the question). A
	// client never sends it.
	DecisionCancelled Decision = "cancelled"
)

// DefaultOptions are the decisions an approval that lists no options offers.
var DefaultOptions = []Decision{DecisionApprove, DecisionDeny}

// IsAnswer reports whether d is a decision a user may send: approve, deny
// or approveForSession (not cancelled, nor any word the protocol does not
// know).
func (d Decision) IsAnswer() bool {
	switch d {
	case DecisionApprove, DecisionDeny, DecisionApproveForSession:
		return true
	}
	return false
}

// Offers reports whether the approval lets the user decide d: d is among
// its options, or, when it lists none, one of DefaultOptions.
func (a Approval) Offers(d Decision) bool {
	if len(a.Options) == 0 {
		return slices.Contains(DefaultOptions, d)
	}
	return slices.Contains(a.Options, string(d))
}

// MaxReasonBytes bounds the reason a deny may carry (approval/respond's
// reason): what the user tells the agent to do instead. A longer one is
// refused with invalid params.
const MaxReasonBytes = 4096

// ReasonAllowed reports whether a reason may go with decision d: only a
// deny carries one (an empty reason goes with anything).
func ReasonAllowed(d Decision, reason string) bool {
	return reason == "" || d == DecisionDeny
}
