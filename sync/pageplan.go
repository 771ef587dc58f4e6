package sync

import (
	"encoding/json"
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

// Page answers as pure reducers: each takes the answer and what the client
// holds, and returns a plan, its effects as data. The loop carries the
// plan out (catchup.go, older.go); the table tests pin the plans down.

// heldRange is what the client holds, as the plans judge answers by it.
type heldRange struct {
	SessionID     string
	Epoch         string
	Gen           uint64 // the replacement generation
	Cursor        int64
	DurableCursor int64
	Authority     bool // the cursor and epoch may be used to resume
}

func (l *loopState) held() heldRange {
	return heldRange{SessionID: l.sessionID, Epoch: l.st.Epoch, Gen: l.gen,
		Cursor: l.st.Cursor, DurableCursor: l.st.DurableCursor, Authority: l.authority}
}

// pageStep is one effect of a page's events, in page order: fold Fold
// (it passed the gate), or record Note as an error.
type pageStep struct {
	Fold *model.Event
	Note string
}

// afterNext is what follows a forward (after) page.
type afterNext int

const (
	// afterAgain: ask for the next page, from the durable cursor.
	afterAgain afterNext = iota
	// afterDrain: the head is reached: drain the buffer, then count
	// HeadSeq as seen.
	afterDrain
	// afterResync: the held range cannot continue (Why): drop its
	// authority and resubscribe at once.
	afterResync
	// afterDrop: drop the link (Why), as a refusal when Persistent.
	afterDrop
	// afterNothing: a stale answer while no longer catching up.
	afterNothing
)

func (n afterNext) String() string {
	return [...]string{"again", "drain", "resync", "drop", "nothing"}[n]
}

// afterPlan is what to do with a forward page: Steps, then Next.
type afterPlan struct {
	// Accepted: the page was judged current (acceptAfterPage).
	Accepted   bool
	Steps      []pageStep
	Next       afterNext
	Why        string
	Persistent bool
	HeadSeq    int64
}

// planAfterPage decides about the answer to req, a forward page asked
// during catch-up. An error answer drops the link (a stale cursor,
// -32020, resyncs); a stale page is asked again from the durable cursor
// if the link is still catching up; a page from another epoch resyncs.
// An accepted page's events pass the gate in order against the cursors
// as the fold advances them: re-deliveries drop, a gap resyncs after what
// folded before it. Then hasNewer asks again (a page that says so but
// carries nothing is a broken peer), else the head is reached.
//
// The cursors advance as State.Apply and State.Pass move them: a durable
// event of the session (folded or refused and stepped over) becomes the
// durable cursor; an ephemeral one is counted as folded (a page's seqs
// only grow, so this matters only to a page that repeats a seq).
func planAfterPage(req pageRequest, res json.RawMessage, rerr *model.RPCError, held heldRange, catchingUp bool) afterPlan {
	if rerr != nil {
		if rerr.Code == model.CodeStaleCursor {
			return afterPlan{Next: afterResync, Why: "the host no longer holds this cursor (-32020)"}
		}
		return afterPlan{Next: afterDrop, Why: "view/page after failed: " + rerr.Message}
	}
	r, err := model.DecodePage(res)
	if err != nil {
		return afterPlan{Next: afterDrop, Persistent: true, Why: "malformed view/page result: " + err.Error()}
	}
	switch acceptAfterPage(req, r.Epoch, held.Epoch, held.Gen, held.DurableCursor) {
	case pageStale:
		if catchingUp {
			return afterPlan{Next: afterAgain}
		}
		return afterPlan{Next: afterNothing}
	case pageEpoch:
		return afterPlan{Next: afterResync, Why: "the host's epoch changed during catch-up"}
	}
	p := afterPlan{Accepted: true}
	cursor, durable := held.Cursor, held.DurableCursor
	for _, el := range r.Events {
		ev, err := el.Event()
		if err != nil {
			p.Steps = append(p.Steps, pageStep{Note: "page element: " + err.Error()})
			if ev == nil {
				continue
			}
		}
		switch gateEvent(ev, cursor, durable) {
		case drop:
			continue
		case gap:
			p.Steps = append(p.Steps, pageStep{Note: "view/page after is not contiguous at seq " + strconv.FormatInt(ev.Seq, 10)})
			p.Next, p.Why = afterResync, "a page did not continue the held range"
			return p
		}
		p.Steps = append(p.Steps, pageStep{Fold: ev})
		if ev.SessionID == held.SessionID && ev.Seq > 0 {
			cursor = max(cursor, ev.Seq)
			if ev.Durable {
				durable = ev.Seq
			}
		}
	}
	switch {
	case r.HasNewer && len(r.Events) == 0:
		p.Next, p.Persistent, p.Why = afterDrop, true, "view/page says hasNewer but sent no events"
	case r.HasNewer:
		p.Next = afterAgain
	default:
		_, p.HeadSeq, _ = model.ParseCursor(r.EndCursor)
		p.Next = afterDrain
	}
	return p
}

// beforeNext is what a history (before) page comes to.
type beforeNext int

const (
	// beforeFold: fold Events into the held range's start (HasOlder).
	beforeFold beforeNext = iota
	// beforeStale: the held history start moved since it was asked:
	// discard it.
	beforeStale
	// beforeResync: the held range cannot continue (Why).
	beforeResync
	// beforeFailed: record Why as an error; nothing else changes.
	beforeFailed
)

func (n beforeNext) String() string {
	return [...]string{"fold", "stale", "resync", "failed"}[n]
}

// beforePlan is what to do with a history page: record Notes, then Next.
type beforePlan struct {
	Next     beforeNext
	Why      string
	Notes    []string
	Events   []*model.Event
	HasOlder bool
}

// planBeforePage decides about the answer to req, a history page. It is
// folded only while its cursor is still the held history start
// (historyStart, acceptBeforePage); an element that cannot be decoded is
// noted and left out. A stale cursor (-32020) or another epoch resyncs;
// any other failure is only reported: the user may ask again.
func planBeforePage(req pageRequest, res json.RawMessage, rerr *model.RPCError, held heldRange, historyStart string) beforePlan {
	if rerr != nil {
		if rerr.Code == model.CodeStaleCursor {
			return beforePlan{Next: beforeResync, Why: "history page refused as stale (-32020)"}
		}
		return beforePlan{Next: beforeFailed, Why: "view/page before failed: " + rerr.Message}
	}
	r, err := model.DecodePage(res)
	if err != nil {
		return beforePlan{Next: beforeFailed, Why: "malformed view/page before result: " + err.Error()}
	}
	switch acceptBeforePage(req, r.Epoch, held.Epoch, held.Gen, historyStart) {
	case pageStale:
		return beforePlan{Next: beforeStale}
	case pageEpoch:
		return beforePlan{Next: beforeResync, Why: "the host's epoch changed"}
	}
	p := beforePlan{Next: beforeFold, HasOlder: r.HasOlder, Events: make([]*model.Event, 0, len(r.Events))}
	for _, el := range r.Events {
		ev, err := el.Event()
		if err != nil {
			p.Notes = append(p.Notes, "history element: "+err.Error())
			continue
		}
		p.Events = append(p.Events, ev)
	}
	return p
}
