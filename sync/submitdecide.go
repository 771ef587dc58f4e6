package sync

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// submitVerdict is what the client does with a turn/submit answer.
type submitVerdict int

const (
	// submitRetry: nothing was admitted; keep the entry pending (status
	// retrying) and retry with the same commandId after a backoff.
	submitRetry submitVerdict = iota
	// submitAcked: admitted, queued or started as a turn.
	submitAcked
	// submitRejected: a durable rejection (-32010): retire the entry.
	submitRejected
	// submitSessionGone: the session is unknown (-32004): nothing can run
	// there; the entry gives its text back (retired gaveUp).
	submitSessionGone
)

// submitOutcome is the decision on one turn/submit answer.
type submitOutcome struct {
	verdict submitVerdict
	// status ("queued" or "started") and turnID, when acked.
	status, turnID string
	// why is the rejection's reason, or why a retry is needed.
	why string
	// malformed: the host answered a result this client cannot read
	// (it is also an error worth listing).
	malformed bool
}

// decideSubmit reads a turn/submit answer. Only a rejection is a
// settlement; backpressure, the envelope errors and any other error
// admitted nothing and are retried with the same commandId, and so is a
// result without a turnId or with an unknown status.
func decideSubmit(res json.RawMessage, rerr *model.RPCError) submitOutcome {
	if rerr == nil {
		var r struct {
			Status string `json:"status"`
			TurnID string `json:"turnId"`
		}
		if err := json.Unmarshal(res, &r); err != nil || r.TurnID == "" || (r.Status != "queued" && r.Status != "started") {
			return submitOutcome{verdict: submitRetry, why: "malformed turn/submit result", malformed: true}
		}
		return submitOutcome{verdict: submitAcked, status: r.Status, turnID: r.TurnID}
	}
	switch rerr.Code {
	case model.CodeRejected:
		var d struct {
			Reason string `json:"reason"`
		}
		_ = json.Unmarshal(rerr.Data, &d) // a rejection without data says why in its message
		if d.Reason == "" {
			d.Reason = rerr.Message
		}
		return submitOutcome{verdict: submitRejected, why: d.Reason}
	case model.CodeUnknownSession:
		return submitOutcome{verdict: submitSessionGone, why: rerr.Message}
	}
	return submitOutcome{verdict: submitRetry, why: rerr.Message}
}
