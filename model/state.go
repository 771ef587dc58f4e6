package model

import (
	"encoding/json"
	"math"
	"slices"
)

const maxWarnings = 8

// State is the folded session. It is not safe for concurrent use: one
// goroutine owns it and hands immutable Views to others.
type State struct {
	SessionID string
	Epoch     string
	// Cursor is the highest seq folded, durable or not; DurableCursor the
	// seq of the last durable event folded (the prevCursor the next
	// durable event must name).
	Cursor        int64
	DurableCursor int64
	// HasOlder is true while history older than the oldest held item
	// exists on the host.
	HasOlder bool

	items       map[string]*Item
	order       []*Item // by (Position, ID)
	orderShared bool    // a View holds order[:len]: copy before rewriting in place
	gen         uint64
	deltaKept   int      // DeltaKept
	deltaCut    *ItemCut // DeltaCut

	active    *ActiveTurn
	queued    []QueuedTurn
	approvals []Approval
	values    map[string]json.RawMessage
	turns     map[string]*TurnRecord
	lastTurn  *TurnRecord
	warnings  []Warning

	pending      []*PendingEntry
	pendingOrder uint64
	retired      []Retirement
	diagnostics  []FoldError

	limits   Limits
	fieldMax int   // limits.FieldBytes, math.MaxInt when unbounded
	itemMax  int   // limits.ItemBytes, math.MaxInt when unbounded
	held     int64 // content bytes of the held items (Item.held summed)
	dropped  int   // items dropped to stay within limits
}

// NewState returns an empty state for a session.
func NewState(sessionID string) *State {
	return &State{
		SessionID: sessionID,
		items:     map[string]*Item{},
		values:    map[string]json.RawMessage{},
		turns:     map[string]*TurnRecord{},
		fieldMax:  math.MaxInt,
		itemMax:   math.MaxInt,
	}
}

func (s *State) init() {
	if s.items == nil {
		s.items = map[string]*Item{}
	}
	if s.values == nil {
		s.values = map[string]json.RawMessage{}
	}
	if s.turns == nil {
		s.turns = map[string]*TurnRecord{}
	}
	if s.fieldMax == 0 {
		s.fieldMax, s.itemMax = bound(s.limits.FieldBytes), bound(s.limits.ItemBytes)
	}
}

// Len is the number of items held.
func (s *State) Len() int { return len(s.order) }

// Item returns the held item with id, or nil. The returned Item must not be
// mutated, and is only stable until the next Apply unless taken via View.
func (s *State) Item(id string) *Item { return s.items[id] }

// Items returns the items in transcript order. Same caveats as Item.
func (s *State) Items() []*Item { return s.order }

// Apply folds one server event. It returns nil when the event was folded or
// was a re-delivery (a durable event whose seq is not above DurableCursor,
// or an ephemeral one whose seq is not above Cursor), and a *FoldError when
// the event is refused, in which case nothing changed. Continuity (gap)
// checks are the caller's: Apply folds what it is given.
func (s *State) Apply(ev *Event) error {
	s.init()
	if ev.Method == MethodHeartbeat {
		return nil
	}
	if s.SessionID == "" {
		s.SessionID = ev.SessionID
	}
	if ev.SessionID != s.SessionID {
		return &FoldError{Reason: SessionMismatch, Method: ev.Method, Seq: ev.Seq, Detail: "event of session " + ev.SessionID}
	}
	if ev.Durable {
		if ev.Seq <= s.DurableCursor {
			return nil
		}
	} else if ev.Seq <= s.Cursor {
		return nil
	}
	if err := s.fold(ev); err != nil {
		return err
	}
	if ev.Seq > s.Cursor {
		s.Cursor = ev.Seq
	}
	if ev.Durable {
		s.DurableCursor = ev.Seq
	}
	return nil
}

// DeltaKept is how many bytes of the text of the last item/delta Apply
// folded the state kept: all of it, a prefix (cut at a bound), or none
// (the rest of a stream already cut). A consumer that prints deltas
// prints only that much: what the fold keeps.
func (s *State) DeltaKept() int { return s.deltaKept }

// DeltaCut is the item's cut when the last item/delta Apply folded was
// cut at a bound (the first delta of its field, or of the item, to be:
// the rest are dropped), else nil. A client passes it on with the delta
// (Event.Cut).
func (s *State) DeltaCut() *ItemCut { return s.deltaCut }

func (s *State) fold(ev *Event) *FoldError {
	switch ev.Method {
	case MethodItemStarted, MethodItemUpdated, MethodItemCompleted:
		s.applyLiveItem(ev.Item, ev.Method == MethodItemCompleted, ev.Seq)
	case MethodItemDelta:
		return s.applyDelta(ev)
	case MethodTurnQueued:
		s.turnQueued(ev)
	case MethodTurnUnqueued:
		s.turnUnqueued(ev)
	case MethodTurnStarted:
		s.turnStarted(ev)
	case MethodTurnCompleted:
		s.turnCompleted(ev)
	case MethodApprovalRequested:
		s.approvalRequested(ev)
	case MethodApprovalResolved:
		s.approvals = slices.DeleteFunc(slices.Clone(s.approvals), func(a Approval) bool { return a.ApprovalID == ev.ApprovalID })
	case MethodSessionState:
		for k, v := range ev.Values {
			s.values[k] = v
		}
	case MethodWarning:
		if ev.Warning != nil {
			w := append(slices.Clone(s.warnings), *ev.Warning)
			if len(w) > maxWarnings {
				w = w[len(w)-maxWarnings:]
			}
			s.warnings = w
		}
	default:
		return &FoldError{Reason: UpstreamFrameError, Method: ev.Method, Seq: ev.Seq, Detail: "unknown method"}
	}
	return nil
}

// Pass steps the cursors over an event the caller reports but cannot fold
// (an unknown method from a newer host), so continuity holds: the next
// durable event names this one as its prevCursor. The transcript does not
// change. Events of another session, or already covered, are ignored.
func (s *State) Pass(ev *Event) {
	if ev == nil || ev.SessionID != s.SessionID || ev.Seq <= 0 {
		return
	}
	if ev.Durable && ev.Seq > s.DurableCursor {
		s.DurableCursor = ev.Seq
	}
	if ev.Seq > s.Cursor {
		s.Cursor = ev.Seq
	}
}

// applyLiveItem folds a full item object from the live stream (or a
// forward page). An item not held whose position is older than the oldest
// held item, while older history exists on the host (HasOlder), is left
// out: held, it would sit before a hole that no history page fills; a
// history page brings it back at its latest revision. Then the held range
// is trimmed to the limits.
func (s *State) applyLiveItem(in *Item, completed bool, seq int64) {
	if s.HasOlder && in.Position > 0 && len(s.order) > 0 && in.Position < s.order[0].Position && s.items[in.ID] == nil {
		return
	}
	s.applyItem(in, completed, seq)
	if s.limits.Items > 0 || s.limits.Bytes > 0 {
		s.trim()
	}
}

// applyItem folds a full item object under the replace-iff-higher-revision
// rule. seq is the event's seq (0 for history pages, which must carry
// positions).
func (s *State) applyItem(in *Item, completed bool, seq int64) {
	cur := s.items[in.ID]
	if cur != nil && in.Revision <= cur.Revision {
		return
	}
	it := in.clone()
	it.gen = s.gen
	it.Final = completed || (cur != nil && cur.Final)
	it.TerminalUnknown = false
	switch {
	case it.Position > 0:
	case cur != nil:
		it.setPosition(cur.Position)
	default:
		it.setPosition(seq)
	}
	it.held = it.ContentLen()
	s.boundFullObject(it, seq)
	if cur != nil && it.Cut == nil {
		it.keepStreamed(cur)
	}
	s.held += int64(it.held)
	if cur != nil {
		s.held -= int64(cur.held)
	}
	if cur != nil {
		it.Version = cur.Version + 1
		if it.Kind == KindToolCall && cur.Kind == KindToolCall && !ValidToolTransition(cur.Status, it.Status) {
			s.diagnose(FoldError{Reason: InvalidTransition, ItemID: it.ID, Seq: seq,
				Detail: "toolCall " + cur.Status + " -> " + it.Status + " (applied: the higher revision is authoritative)"})
		}
	} else {
		it.Version = 1
	}
	s.items[it.ID] = it
	if cur != nil && cur.Position == it.Position {
		s.replaceInOrder(cur, it)
	} else {
		if cur != nil {
			s.removeFromOrder(cur)
		}
		s.insertInOrder(it)
	}
	if it.Kind == KindUserMessage {
		if cid := it.CommandID(); cid != "" {
			s.retirePending(cid, RetiredJoined, it.ID)
		}
	}
}

func (s *State) applyDelta(ev *Event) *FoldError {
	it := s.items[ev.ItemID]
	if it == nil {
		return &FoldError{Reason: UnknownItem, Method: ev.Method, ItemID: ev.ItemID, Field: ev.Field, Seq: ev.Seq, Detail: "delta for an item never seen"}
	}
	if !it.IsOpen() {
		return &FoldError{Reason: TerminalItem, Method: ev.Method, ItemID: ev.ItemID, Field: ev.Field, Seq: ev.Seq, Detail: "delta for an item already " + it.Status}
	}
	s.deltaKept, s.deltaCut = 0, nil
	if it.Cut != nil && it.Cut.drops(ev.Field) {
		return nil // the rest of a stream cut at the client's bound: dropped, reported when cut
	}
	if it.gen != s.gen {
		it = s.own(it)
	}
	b := deltaBudget{fieldMax: s.fieldMax, itemRoom: s.itemMax - it.held}
	if ferr := it.appendDelta(ev.Field, ev.Delta, &b); ferr != nil {
		ferr.Method, ferr.ItemID, ferr.Field, ferr.Seq = ev.Method, ev.ItemID, ev.Field, ev.Seq
		return ferr
	}
	s.deltaKept = b.kept
	it.held += b.added
	s.held += int64(b.added)
	it.Version++
	if b.cut != notCut {
		s.noteCut(it, b.cut, ev)
		s.deltaCut = it.Cut
	}
	if ev.Cut != nil {
		it.Cut = mergeCuts(it.Cut, ev.Cut)
	}
	if s.limits.Bytes > 0 && s.held > s.limits.Bytes {
		s.trim()
	}
	return nil
}

func (s *State) diagnose(e FoldError) {
	s.diagnostics = append(s.diagnostics, e)
	if len(s.diagnostics) > 32 {
		s.diagnostics = slices.Clone(s.diagnostics[len(s.diagnostics)-32:])
	}
}

// TakeDiagnostics returns and clears the non-fatal findings of the fold
// (for example a toolCall state machine violation that was still applied).
func (s *State) TakeDiagnostics() []FoldError {
	d := s.diagnostics
	s.diagnostics = nil
	return d
}

// MarkTerminalUnknown marks every open item terminal-unknown: the host was
// ephemeral and died, so no terminal will come. It is a display state only
// and is not part of the canonical encoding. It returns how many items it
// marked.
func (s *State) MarkTerminalUnknown() int {
	n := 0
	for _, it := range slices.Clone(s.order) {
		if it.IsOpen() && !it.TerminalUnknown {
			c := it
			if c.gen != s.gen {
				c = s.own(it)
			}
			c.TerminalUnknown = true
			c.Version++
			n++
		}
	}
	return n
}

// ApplyOlder folds one `before` page of history: each element is an item's
// latest full-object event. Cursors do not move. hasOlder is the page's.
func (s *State) ApplyOlder(events []*Event, hasOlder bool) error {
	s.init()
	for _, ev := range events {
		if ev.SessionID != s.SessionID {
			return &FoldError{Reason: SessionMismatch, Method: ev.Method, Seq: ev.Seq}
		}
		if ev.Item == nil {
			continue
		}
		s.applyItem(ev.Item, ev.Method == MethodItemCompleted, ev.Seq)
	}
	s.HasOlder = hasOlder
	return nil
}

// AppendStreamed appends a streamed delta to an open item without the
// re-delivery gate: for a host rebuilding, after a crash, the text its
// journal recorded as deltas since the item's last full object. It makes
// the same checks as item/delta (unknown item, terminal item, a field that
// is not a string) and changes nothing when it refuses.
func (s *State) AppendStreamed(itemID, field, delta string) error {
	s.init()
	if ferr := s.applyDelta(&Event{Method: MethodItemDelta, SessionID: s.SessionID, ItemID: itemID, Field: field, Delta: delta}); ferr != nil {
		return ferr
	}
	return nil
}
