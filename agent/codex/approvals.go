package codex

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// approvalParams is the part of Codex's command and file-change approval
// requests the bridge reads.
type approvalParams struct {
	ItemID             string            `json:"itemId"`
	Reason             *string           `json:"reason"`
	Command            *string           `json:"command"`
	AvailableDecisions []json.RawMessage `json:"availableDecisions"`
	ProposedAmendment  json.RawMessage   `json:"proposedExecpolicyAmendment"`
}

// askLocked puts one of Codex's approval requests to the user. The wait
// runs on its own goroutine, so the turn keeps folding meanwhile; the
// answer goes back to Codex as the request's reply.
func (ts *turnState) askLocked(m *message) error {
	var p approvalParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		_ = ts.th.p.conn.reply(m.ID, map[string]any{"decision": "decline"})
		return err
	}
	oi := ts.items[p.ItemID]
	if oi == nil {
		// A question about an item Codex never showed: show one to ask about.
		it := codexItem{Type: "commandExecution", ID: p.ItemID}
		if m.Method == "item/fileChange/requestApproval" {
			it.Type = "fileChange"
		} else if p.Command != nil {
			it.Command = *p.Command
		}
		plan := planStart(it, ts.th.cwd)
		id, err := ts.t.StartItem(plan.Kind, plan.Status, plan.Fields)
		if err != nil {
			_ = ts.th.p.conn.reply(m.ID, map[string]any{"decision": "cancel"})
			return err
		}
		oi = &openItem{id: id, kind: plan.Kind, status: plan.Status, item: it}
		ts.items[p.ItemID] = oi
	}
	if oi.kind == model.KindToolCall && oi.status == model.StatusReady {
		if ts.t.UpdateItem(oi.id, model.StatusWaitingUser, nil) == nil {
			oi.status = model.StatusWaitingUser
		}
	}
	reason := ""
	if p.Reason != nil {
		reason = *p.Reason
	}
	offer := offeredDecisions(m.Method, p.AvailableDecisions, p.ProposedAmendment)
	command := amendmentTokens(offer.amendment)
	if !offer.forSession && preApproved(approvedPrefixes(ts.th.sess.Value(stateApprovedPrefixes)), command) {
		// Approved for this session already (session_approvals.go).
		_ = ts.th.p.conn.reply(m.ID, map[string]any{"decision": "accept"})
		ts.toRunningLocked(oi)
		return nil
	}
	req := host.ApprovalRequest{ItemID: oi.id, Summary: approvalSummary(oi.item, reason, ts.th.cwd), Options: offer.options()}
	actx, cancel := context.WithCancel(ts.ctx)
	key := string(m.ID)
	ts.approvals[key] = cancel
	go func() {
		defer cancel()
		ans, err := ts.t.Ask(actx, req)
		d := ans.Decision
		if err == nil && d == model.DecisionApproveForSession && !offer.forSession && command != nil {
			// Kept by the bridge for this session, not in Codex's rules.
			prefixes := withPrefix(approvedPrefixes(ts.th.sess.Value(stateApprovedPrefixes)), command)
			_ = ts.t.SetState(map[string]any{stateApprovedPrefixes: prefixes})
		}
		if err == nil && d == model.DecisionDeny && ans.Reason != "" {
			// Before the decline, so that the model call after it carries
			// the reason right after the refusal.
			ts.steerReason(ans.Reason)
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		delete(ts.approvals, key)
		if err != nil {
			if ts.ctx.Err() != nil {
				_ = ts.th.p.conn.reply(m.ID, map[string]any{"decision": "cancel"})
			}
			return // withdrawn by Codex: it wants no answer
		}
		_ = ts.th.p.conn.reply(m.ID, map[string]any{"decision": offer.codexDecision(d)})
		if d != model.DecisionDeny && !ts.outcome.Finished() {
			ts.toRunningLocked(oi)
		}
	}()
	return nil
}

// steerReason hands Codex a deny's reason. Codex's approval decisions
// carry no message (its own TUI declines, then lets the user type), so the
// reason goes to the running turn as the user's input (turn/steer): Codex
// adds it to the next model call, after the refused tool's result. Codex
// shows it as a userMessage, which the bridge does not repeat. Called
// without ts.mu (the call's answer comes through the dispatcher).
func (ts *turnState) steerReason(reason string) {
	ctx, cancel := context.WithTimeout(ts.ctx, steerTimeout)
	defer cancel()
	if err := ts.th.steer(ctx, ts.codexTurn(), reason); err != nil {
		ts.th.a.log.Warn("codex did not take a deny's reason", "session", ts.th.sess.ID(), "err", err)
		_ = ts.t.Warning(model.Warning{RequestKind: "agent", Code: "reasonNotDelivered",
			Message: "Codex did not take the reason given with the deny (" + err.Error() + "); it was told only that the user declined"})
	}
}

// steerTimeout bounds the turn/steer that carries a deny's reason.
const steerTimeout = 5 * time.Second

// offer is what Codex lets the user decide about one request.
type offer struct {
	forSession bool            // "acceptForSession" is offered
	amendment  json.RawMessage // an exec-policy amendment Codex proposes
}

func offeredDecisions(method string, available []json.RawMessage, amendment json.RawMessage) offer {
	o := offer{}
	if method == "item/fileChange/requestApproval" {
		o.forSession = true // file changes always take acceptForSession
	}
	for _, d := range available {
		var s string
		if json.Unmarshal(d, &s) == nil && s == "acceptForSession" {
			o.forSession = true
		}
	}
	if len(amendment) > 0 && string(amendment) != "null" {
		o.amendment = amendment
	}
	return o
}

// options are the Lookout decisions the offer allows.
func (o offer) options() []model.Decision {
	opts := []model.Decision{model.DecisionApprove, model.DecisionDeny}
	if o.forSession || o.amendment != nil {
		opts = slices.Insert(opts, 1, model.DecisionApproveForSession)
	}
	return opts
}

// codexDecision is a Lookout decision in Codex's words. Approving for the
// session takes acceptForSession when offered; else it is "accept" for
// Codex, and the bridge remembers the command for the session
// (session_approvals.go). Codex's exec-policy amendment is never taken:
// it would allow the command in every session from then on.
func (o offer) codexDecision(d model.Decision) any {
	switch d {
	case model.DecisionApprove:
		return "accept"
	case model.DecisionApproveForSession:
		if o.forSession {
			return "acceptForSession"
		}
		return "accept"
	case model.DecisionDeny:
		return "decline"
	}
	return "cancel"
}
