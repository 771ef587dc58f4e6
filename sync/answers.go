package sync

import (
	"encoding/json"
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// Approval answers the user gave that the host has not confirmed. An
// answer given offline waits here and is sent once the next connection
// has caught up; one in flight when a connection drops is sent again.
// Sending again is safe: the host answers a decision for an approval it
// has already resolved with {} and changes nothing.

// Answer is an approval answer given here that the host has not confirmed.
type Answer struct {
	ApprovalID string
	Decision   model.Decision
	// Reason is what a deny tells the agent to do instead ("" none).
	Reason string
	// Sent: the answer went out on a connection (the host may have it);
	// false while it waits for one.
	Sent bool
}

type answerState struct {
	decision model.Decision
	reason   string // a deny's reason
	inflight bool
	sent     bool // sent at least once
}

// answerAction is what reconciliation does with an answer still owed.
type answerAction int

const (
	answerSend       answerAction = iota // the approval still waits: send the answer
	answerKeep                           // already in flight on this link
	answerDrop                           // resolved meanwhile, maybe by this answer
	answerDropUnsent                     // resolved meanwhile without it: say so
)

// decideAnswer is what a caught-up connection does with an owed answer,
// given whether the fold still holds its approval pending.
func decideAnswer(stillPending, inflight, sent bool) answerAction {
	switch {
	case !stillPending && sent:
		return answerDrop
	case !stillPending:
		return answerDropUnsent
	case inflight:
		return answerKeep
	}
	return answerSend
}

func (l *loopState) respond(approvalID string, decision model.Decision, reason string) {
	if !decision.IsAnswer() {
		l.addError("approval decision must be approve, deny or approveForSession, not " + string(decision))
		return
	}
	if !model.ReasonAllowed(decision, reason) {
		l.addError("only a deny carries a reason, not " + string(decision))
		return
	}
	a := l.answers[approvalID]
	if a == nil {
		a = &answerState{}
		l.answers[approvalID] = a
	}
	if a.inflight {
		return // the host takes the first answer it gets
	}
	a.decision, a.reason = decision, reason // an answer not yet sent may still change
	l.dirty = true
	if l.ready() {
		l.sendAnswer(approvalID, a)
	}
	// Otherwise the reconciliation of the next connection sends it.
}

func (l *loopState) sendAnswer(approvalID string, a *answerState) {
	a.inflight, a.sent = true, true
	params := map[string]string{"sessionId": l.sessionID, "approvalId": approvalID, "decision": string(a.decision)}
	if a.reason != "" {
		params["reason"] = a.reason
	}
	l.call("approval/respond", params,
		func(_ json.RawMessage, rerr *model.RPCError) {
			a.inflight = false
			if l.answers[approvalID] != a {
				return
			}
			delete(l.answers, approvalID)
			l.dirty = true
			if rerr != nil {
				l.addError("approval/respond: " + rerr.Message)
			}
		})
}

// reconcileAnswers runs once a new connection has caught up.
func (l *loopState) reconcileAnswers() {
	if len(l.answers) == 0 {
		return
	}
	pending := map[string]bool{}
	for _, a := range l.st.View().Approvals {
		pending[a.ApprovalID] = true
	}
	for _, id := range l.answerIDs() {
		a := l.answers[id]
		switch decideAnswer(pending[id], a.inflight, a.sent) {
		case answerSend:
			l.sendAnswer(id, a)
		case answerDropUnsent:
			l.addError("approval answer not sent: approval " + id + " was resolved before the connection came back")
			fallthrough
		case answerDrop:
			delete(l.answers, id)
			l.dirty = true
		}
	}
}

func (l *loopState) answerIDs() []string {
	ids := make([]string, 0, len(l.answers))
	for id := range l.answers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// answerList is Picture.Answers: a fresh slice, by approval id.
func (l *loopState) answerList() []Answer {
	if len(l.answers) == 0 {
		return nil
	}
	out := make([]Answer, 0, len(l.answers))
	for _, id := range l.answerIDs() {
		a := l.answers[id]
		out = append(out, Answer{ApprovalID: id, Decision: a.decision, Reason: a.reason, Sent: a.sent})
	}
	return out
}
