package host

import "github.com/lookout-sh/lookout/model"

// codeInternalError is JSON-RPC's "internal error": a handler failed in a
// way no request should cause. The protocol's own codes are model.Code*.
const codeInternalError = -32603

// Turn error codes: error.code of a failed or stopped turn/completed that
// the host itself ends (an agent's TurnFailure names its own).
const (
	turnErrLaunchFailed = "launchFailed" // the agent refused to start the turn
	turnErrAgentPanic   = "agentPanic"   // the agent crashed
	turnErrAgentError   = "agentError"   // the agent returned an error
	turnErrHostShutdown = "hostShutdown" // a graceful Close stopped the turn
	turnErrHostDeath    = "hostDeath"    // the host died while the turn ran
)

// Rejection reasons (data.reason of -32010 rejected).
const (
	rejectEmptyText   = "emptyText"
	rejectTextTooLong = "textTooLong"
	// rejectCommandNotOffered: turn/submit named an agentCommand the
	// session's agent does not offer (its "commands" state).
	rejectCommandNotOffered = "commandNotOffered"
)

// reasonReasonTooLong is data.reason of approval/respond's -32602 when
// its reason is longer than model.MaxReasonBytes.
const reasonReasonTooLong = "reasonTooLong"

// reasonReasonNotDeny is data.reason of approval/respond's -32602 when a
// reason comes with a decision other than deny.
const reasonReasonNotDeny = "reasonNotDeny"

// reasonTooManySessions is data.reason of session/create's -32001 when
// the host holds Options.MaxSessions sessions.
const reasonTooManySessions = "tooManySessions"

// errJournalUnavailable answers -32001 when the journal refused a commit.
func errJournalUnavailable(err error) *rpcError {
	return &rpcError{Code: model.CodeBackpressured, Message: "backpressured: journal unavailable: " + err.Error()}
}

// errJournalRead answers -32001 when a page could not be read.
func errJournalRead(err error) *rpcError {
	return &rpcError{Code: model.CodeBackpressured, Message: "backpressured: journal read failed: " + err.Error()}
}
