package sync

import (
	"encoding/json"
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

// subscribeNext is what follows a session/subscribe answer.
type subscribeNext int

const (
	// subscribeLoad: load Snapshot in Epoch; the link is then live.
	subscribeLoad subscribeNext = iota
	// subscribeCatchUp: page forward from the durable cursor (after
	// replacing the state by an empty one in Epoch when ReplaceEmpty).
	subscribeCatchUp
	// subscribeLive: the held range already reaches the head.
	subscribeLive
	// subscribeResync: the held range cannot continue (Why).
	subscribeResync
	// subscribeDrop: drop the link (Why), as a refusal when Persistent.
	subscribeDrop
	// subscribeMissing: the host does not know the session (Why): final.
	// MarkTerminalUnknown: the host is ephemeral, so what was open will
	// never end.
	subscribeMissing
)

func (n subscribeNext) String() string {
	return [...]string{"load", "catch up", "live", "resync", "drop", "missing"}[n]
}

// subscribePlan is what to do with a session/subscribe answer.
type subscribePlan struct {
	Next subscribeNext
	// Delivery is the answer's delivery ("snapshot" or "suffix") when it
	// had a known one, for the stats.
	Delivery            string
	Epoch               string
	Snapshot            *model.Snapshot
	ReplaceEmpty        bool
	MarkTerminalUnknown bool
	Why                 string
	Persistent          bool
}

// planSubscribe decides about a session/subscribe answer (docs/protocol.md
// §5). A snapshot replaces the state and is a completed catch-up, except
// in Replay mode, where the client folds the epoch's history itself: from
// its cursor when it holds the epoch with authority, else from the start.
// A suffix continues the held range: in another epoch it cannot (resync);
// a range already at the head whose last event is durable is live; else
// it catches up by pages.
func planSubscribe(res json.RawMessage, rerr *model.RPCError, held heldRange, durability string, replay bool) subscribePlan {
	if rerr != nil {
		if rerr.Code == model.CodeUnknownSession {
			return subscribePlan{Next: subscribeMissing, MarkTerminalUnknown: durability == "ephemeral",
				Why: "the host does not know session " + held.SessionID}
		}
		return subscribePlan{Next: subscribeDrop, Why: "session/subscribe failed: " + rerr.Message}
	}
	var r subscribeResult
	if err := json.Unmarshal(res, &r); err != nil || r.Epoch == "" {
		return subscribePlan{Next: subscribeDrop, Persistent: true, Why: "malformed session/subscribe result"}
	}
	switch r.Delivery {
	case "snapshot":
		p := subscribePlan{Delivery: r.Delivery, Epoch: r.Epoch}
		switch {
		case replay:
			p.Next, p.ReplaceEmpty = subscribeCatchUp, !held.Authority || r.Epoch != held.Epoch
		case r.Snapshot == nil:
			p.Next, p.Persistent, p.Why = subscribeDrop, true, "snapshot delivery without a snapshot"
		default:
			p.Next, p.Snapshot = subscribeLoad, r.Snapshot
		}
		return p
	case "suffix":
		p := subscribePlan{Delivery: r.Delivery, Epoch: r.Epoch, Next: subscribeCatchUp}
		_, headSeq, _ := model.ParseCursor(r.Head)
		switch {
		case r.Epoch != held.Epoch:
			p.Next, p.Why = subscribeResync, "suffix delivery from another epoch"
		case held.Cursor >= headSeq && held.DurableCursor >= held.Cursor:
			// Every durable event up to the head is held. A cursor on
			// an ephemeral event is not proof: a durable one before it
			// may have been lost (an ephemeral event never reveals a
			// gap), so that range catches up by a page.
			p.Next = subscribeLive
		}
		return p
	}
	return subscribePlan{Next: subscribeDrop, Persistent: true, Why: "unknown subscribe delivery " + strconv.Quote(r.Delivery)}
}
