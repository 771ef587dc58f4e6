package sync

import (
	"time"

	"github.com/lookout-sh/lookout/model"
)

// This file holds the client's decisions as small pure functions. The
// client's goroutine asks them what to do; the table tests pin them down.

// verdict is what the live gate decides for one event.
type verdict int

const (
	// apply: fold the event now.
	apply verdict = iota
	// drop: a re-delivery (seq not above the relevant cursor).
	drop
	// gap: a durable event whose prevCursor is not the client's durable
	// cursor: something durable was missed.
	gap
)

func (v verdict) String() string {
	switch v {
	case apply:
		return "apply"
	case drop:
		return "drop"
	}
	return "gap"
}

// gateEvent is the live gate (docs/protocol.md §2, the client's table). A
// durable event at or below the durable cursor is a re-delivery; one whose
// prevCursor is not the durable cursor reveals a gap. An ephemeral event at
// or below the cursor (the highest seq folded, durable or not) is a
// re-delivery; an ephemeral event never reveals a gap (ephemeral events may
// be shed).
func gateEvent(ev *model.Event, cursor, durableCursor int64) verdict {
	if ev.Durable {
		switch {
		case ev.Seq <= durableCursor:
			return drop
		case ev.PrevSeq != durableCursor:
			return gap
		}
		return apply
	}
	if ev.Seq <= cursor {
		return drop
	}
	return apply
}

// pageVerdict is what the client does with a view/page answer.
type pageVerdict int

const (
	// pageAccept: fold it.
	pageAccept pageVerdict = iota
	// pageStale: asked for before a replacement (or superseded); discard.
	pageStale
	// pageEpoch: the answer is from another epoch than the state: the
	// client must resubscribe and replace its state.
	pageEpoch
)

func (v pageVerdict) String() string {
	switch v {
	case pageAccept:
		return "accept"
	case pageStale:
		return "stale"
	}
	return "epoch"
}

// pageRequest records what a view/page request asked for, to judge its
// answer against the state when it arrives.
type pageRequest struct {
	Epoch     string
	Cursor    string // the request's cursor, verbatim
	CursorSeq int64
	Gen       uint64 // the client's replacement generation when asked
}

// acceptAfterPage decides about a forward (after) page. It is accepted
// when it was asked for within the current replacement generation, in the
// state's epoch, and from a cursor at or below the durable cursor held now
// (so the page is adjacent to, or overlaps, the held range: the events at
// or below the cursor are then dropped by the gate). A page from another
// epoch than the one asked for means the host moved on: resubscribe.
func acceptAfterPage(req pageRequest, answerEpoch, stateEpoch string, gen uint64, durableCursor int64) pageVerdict {
	if req.Gen != gen || req.Epoch != stateEpoch {
		return pageStale
	}
	if answerEpoch != req.Epoch {
		return pageEpoch
	}
	if req.CursorSeq > durableCursor {
		return pageStale
	}
	return pageAccept
}

// acceptBeforePage decides about a history (before) page: it is accepted
// only if its request's cursor is still the start of the history the client
// holds (docs/protocol.md §6), within the same replacement generation and
// epoch. Anything else is stale and is discarded.
func acceptBeforePage(req pageRequest, answerEpoch, stateEpoch string, gen uint64, historyStart string) pageVerdict {
	if req.Gen != gen || req.Epoch != stateEpoch || req.Cursor != historyStart {
		return pageStale
	}
	if answerEpoch != req.Epoch {
		return pageEpoch
	}
	return pageAccept
}

// Backoff limits (docs/sync.md, "Decisions"): retries double from 1 s to a 30 s ceiling.
const (
	backoffBase    = time.Second
	backoffCeiling = 30 * time.Second
	// healthyAfter: a connection that stayed live (caught up) this long
	// was a success, and the backoff starts over. A catch-up alone is not
	// enough: a host that breaks every connection soon after catch-up (an
	// oversize frame, say) would otherwise be retried once a second for
	// ever.
	healthyAfter = 30 * time.Second
)

// backoffDelay is the wait before retry number attempt (0-based): 1 s,
// 2 s, 4 s, 8 s, 16 s, then 30 s for ever.
func backoffDelay(attempt int) time.Duration {
	if attempt < 0 {
		attempt = 0
	}
	if attempt >= 5 {
		return backoffCeiling
	}
	d := backoffBase << attempt
	if d > backoffCeiling {
		return backoffCeiling
	}
	return d
}

// retryInputs is what the wait before the next connection attempt
// depends on.
type retryInputs struct {
	// Attempt counts the retries scheduled since the backoff last started
	// over.
	Attempt int
	// Immediate: the drop asks to reconnect at once (a resubscribe after
	// a stale cursor or another epoch, a probe that got no answer).
	Immediate bool
	// LiveFor is how long the dropped connection was live (caught up);
	// 0 when it never caught up, or for a failed dial.
	LiveFor time.Duration
	// HealthyAfter is how long a connection must have been live to count
	// as a success (healthyAfter, scaled in tests).
	HealthyAfter time.Duration
}

// decideRetry returns the wait before the next connection attempt and the
// attempt count after it. A connection that stayed live HealthyAfter
// starts the backoff over; one that broke sooner, caught up or not, counts
// as one more failure, so a host that fails every connection right after
// catch-up is retried at 1 s, 2 s, 4 s ... 30 s, not once a second. An
// immediate reconnect goes at once only when nothing failed since the
// backoff started over; repeated, it backs off like any failure (one step
// behind), so a host that forces resubscribes cannot make the client spin.
func decideRetry(in retryInputs) (wait time.Duration, attempt int) {
	attempt = in.Attempt
	if in.LiveFor > 0 && in.LiveFor >= in.HealthyAfter {
		attempt = 0
	}
	switch {
	case in.Immediate && attempt == 0:
		return 0, 1
	case in.Immediate:
		return backoffDelay(attempt - 1), attempt + 1
	}
	return backoffDelay(attempt), attempt + 1
}

// backoff is the retry schedule: Drop returns the wait before the next
// attempt and advances (decideRetry); Reset (terminal focus, a user
// retry) starts over at 1 s.
type backoff struct{ attempt int }

// Drop schedules the attempt after a failed attempt or a lost connection
// that was live for liveFor.
func (b *backoff) Drop(immediate bool, liveFor, healthy time.Duration) time.Duration {
	d, n := decideRetry(retryInputs{Attempt: b.attempt, Immediate: immediate, LiveFor: liveFor, HealthyAfter: healthy})
	b.attempt = n
	return d
}

func (b *backoff) Reset() { b.attempt = 0 }

// Attempt is the number of retries scheduled since the last reset.
func (b *backoff) Attempt() int { return b.attempt }

// freshInputs is what the freshness decision looks at.
type freshInputs struct {
	// Refusal is the message of a persistent refusal (401/403, unknown
	// session, a broken protocol peer); "" when there is none.
	Refusal string
	// RefusalReason classifies Refusal (a Reason* constant).
	RefusalReason string
	// UserRetry: a retry the user pressed is in flight.
	UserRetry bool
	// Connected: a socket is open (it may still be initializing).
	Connected bool
	// CaughtUp: the last catch-up completed and nothing is known missing.
	CaughtUp bool
	// EverConnected: a connection was established at least once.
	EverConnected bool
	// LastErr is the last connection error (reconnecting).
	LastErr string
	// LastReason classifies LastErr (a Reason* constant).
	LastReason string
	// NextAttempt is when the next connection attempt is due (zero: now).
	NextAttempt time.Time
	// Attempt counts consecutive failed attempts.
	Attempt int
}

// decideFreshness applies the priority error > reconnecting > updating >
// live, with a user-pressed retry of a refusal in flight shown as its own
// state (retrying, with the refusal it retries) and the very first attempt
// as connecting. A user retry without a refusal (while reconnecting or
// updating) changes nothing but what it makes true: the attempt is under
// way now (reconnecting with no next attempt time). Socket connectivity
// alone never yields live: only a completed catch-up does. The reason
// classifies the error shown: the refusal's, or the last error's while
// reconnecting.
func decideFreshness(in freshInputs) Freshness {
	switch {
	case in.UserRetry && in.Refusal != "":
		return Freshness{State: Retrying, Attempt: in.Attempt, Err: in.Refusal, Reason: in.RefusalReason}
	case in.Refusal != "":
		return Freshness{State: Error, Err: in.Refusal, Reason: in.RefusalReason, NextAttempt: in.NextAttempt, Attempt: in.Attempt}
	case !in.Connected && !in.EverConnected && in.LastErr == "":
		return Freshness{State: Connecting}
	case !in.Connected:
		return Freshness{State: Reconnecting, NextAttempt: in.NextAttempt, Attempt: in.Attempt, Err: in.LastErr, Reason: in.LastReason}
	case !in.CaughtUp:
		return Freshness{State: Updating}
	}
	return Freshness{State: Live}
}

// replayAnswer is the result of command/replay (docs/protocol.md §7).
type replayAnswer struct {
	State      string `json:"state"`
	TurnID     string `json:"turnId"`
	Settlement *struct {
		Kind   string `json:"kind"`
		ItemID string `json:"itemId"`
		Reason string `json:"reason"`
	} `json:"settlement"`
	// TurnStatus and TurnError: the outcome of the command's turn, once it
	// ended (an optional extension of v1; absent from older hosts).
	TurnStatus string           `json:"turnStatus"`
	TurnError  *model.TurnError `json:"turnError"`
}

// status is the answer as the Client publishes it.
func (a replayAnswer) status() CommandStatus {
	cs := CommandStatus{State: a.State, TurnID: a.TurnID, TurnStatus: a.TurnStatus, TurnError: a.TurnError}
	if a.Settlement != nil {
		cs.Settlement, cs.ItemID, cs.Reason = a.Settlement.Kind, a.Settlement.ItemID, a.Settlement.Reason
	}
	if !model.IsTerminalStatus(cs.TurnStatus) {
		cs.TurnStatus, cs.TurnError = "", nil
	}
	return cs
}

// replayAction is what one replay answer does to its pending entry.
type replayAction struct {
	// Keep: the entry stays pending; AckStatus/TurnID (when set) refresh it.
	Keep      bool
	AckStatus string
	TurnID    string
	// Retire (when !Keep): the reason and detail to retire the entry with.
	Retire model.RetireReason
	ItemID string
	Detail string
	// Resubmit: the host never admitted it: send it (same commandId).
	Resubmit bool
}

// reconcileReplay maps a command/replay answer for one of this client's
// pending entries to an action (docs/protocol.md §7, "On reconnect"). A
// settled command retires per its settlement kind; a pending, queued or
// started one stays pending; an unknown one was never admitted: an unacked
// entry is resubmitted, while an entry the host had acked and now forgets
// (its journal was lost) returns its text to the composer rather than run
// twice or linger as a ghost.
func reconcileReplay(a replayAnswer, acked bool) replayAction {
	switch a.State {
	case "pending":
		return replayAction{Keep: true}
	case "queued", "started":
		return replayAction{Keep: true, AckStatus: a.State, TurnID: a.TurnID}
	case "unknown":
		if !acked {
			return replayAction{Keep: true, Resubmit: true}
		}
		return replayAction{Retire: model.RetiredGaveUp, Detail: "the host has no record of this command"}
	case "settled":
		if a.Settlement == nil {
			return replayAction{Keep: true, Detail: "settled without a settlement"}
		}
		switch a.Settlement.Kind {
		case "userMessage":
			return replayAction{Retire: model.RetiredJoined, ItemID: a.Settlement.ItemID}
		case "rejected":
			return replayAction{Retire: model.RetiredRejected, Detail: a.Settlement.Reason}
		case "unqueued":
			return replayAction{Retire: model.RetiredUnqueued}
		case "launchFailed":
			return replayAction{Retire: model.RetiredLaunchFailed}
		}
		return replayAction{Keep: true, Detail: "unknown settlement kind " + a.Settlement.Kind}
	}
	return replayAction{Keep: true, Detail: "unknown replay state " + a.State}
}
