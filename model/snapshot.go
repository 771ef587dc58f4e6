package model

import (
	"encoding/json"
	"errors"
	"slices"
)

// Snapshot is the protocol's snapshot object (docs/protocol.md, 5.
// Subscribe and resume): the complete fold at Cursor.
type Snapshot struct {
	Cursor           string                     `json:"cursor"`
	DurableCursor    string                     `json:"durableCursor"`
	Items            []json.RawMessage          `json:"items"`
	HasOlder         bool                       `json:"hasOlder"`
	ActiveTurn       *ActiveTurn                `json:"activeTurn"`
	QueuedTurns      []QueuedTurn               `json:"queuedTurns"`
	PendingApprovals []json.RawMessage          `json:"pendingApprovals"`
	State            map[string]json.RawMessage `json:"state"`
}

// Snapshot returns the state as a protocol snapshot holding at most the
// newest limit items (limit <= 0: all of them); HasOlder is set when items
// were left out or the state itself lacks older history.
func (s *State) Snapshot(limit int) Snapshot {
	snap, _ := s.SnapshotWithin(limit, 0)
	return snap
}

// SnapshotWithin is Snapshot(limit) keeping only the newest items whose
// encodings together fit in maxBytes (maxBytes <= 0: no byte bound); cut
// reports that the byte bound left out items the item limit would have
// kept. Items are encoded newest first and only until the bound is met.
func (s *State) SnapshotWithin(limit, maxBytes int) (snap Snapshot, cut bool) {
	items := s.order
	hasOlder := s.HasOlder
	if limit > 0 && len(items) > limit {
		items = items[len(items)-limit:]
		hasOlder = true
	}
	encoded := make([]json.RawMessage, len(items))
	first, total := 0, 0
	for i := len(items) - 1; i >= 0; i-- {
		enc := items[i].AppendJSON(nil)
		if maxBytes > 0 && total+len(enc) > maxBytes {
			first, cut, hasOlder = i+1, true, true
			break
		}
		total += len(enc)
		encoded[i] = enc
	}
	snap = Snapshot{
		Cursor:           FormatCursor(s.SessionID, s.Cursor),
		DurableCursor:    FormatCursor(s.SessionID, s.DurableCursor),
		Items:            encoded[first:],
		HasOlder:         hasOlder,
		QueuedTurns:      slices.Clone(s.queued),
		PendingApprovals: make([]json.RawMessage, len(s.approvals)),
		State:            make(map[string]json.RawMessage, len(s.values)),
	}
	if snap.QueuedTurns == nil {
		snap.QueuedTurns = []QueuedTurn{}
	}
	if s.active != nil {
		a := *s.active
		snap.ActiveTurn = &a
	}
	for i, a := range s.approvals {
		snap.PendingApprovals[i] = appendCanonicalRaw(nil, a.Params)
	}
	for k, v := range s.values {
		snap.State[k] = appendCanonicalRaw(nil, v)
	}
	return snap, cut
}

// LoadSnapshot replaces the server-derived state with a snapshot, keeping
// the pending family (re-anchored per the snapshot rules). It returns the
// acked pending commandIds that the snapshot no longer lists, to be
// resolved by command/replay. On error nothing changed.
func (s *State) LoadSnapshot(sessionID, epoch string, snap Snapshot) (needReplay []string, err error) {
	fresh := NewState(sessionID)
	fresh.Epoch = epoch
	fresh.limits, fresh.fieldMax, fresh.itemMax = s.limits, s.fieldMax, s.itemMax
	if fresh.fieldMax == 0 {
		fresh.fieldMax, fresh.itemMax = bound(s.limits.FieldBytes), bound(s.limits.ItemBytes)
	}
	parse := func(c, what string) (int64, error) {
		if c == "" {
			return 0, nil
		}
		sid, seq, ok := ParseCursor(c)
		if !ok || sid != sessionID {
			return 0, &FoldError{Reason: SnapshotError, Detail: "malformed " + what + " " + c}
		}
		return seq, nil
	}
	if fresh.Cursor, err = parse(snap.Cursor, "cursor"); err != nil {
		return nil, err
	}
	if fresh.DurableCursor, err = parse(snap.DurableCursor, "durableCursor"); err != nil {
		return nil, err
	}
	if fresh.DurableCursor > fresh.Cursor {
		return nil, &FoldError{Reason: SnapshotError, Detail: "durableCursor is past cursor"}
	}
	for _, raw := range snap.Items {
		it, ierr := DecodeItem(raw)
		if ierr != nil {
			var fe *FoldError
			if !errors.As(ierr, &fe) {
				return nil, ierr
			}
			fe.Reason, fe.Detail = SnapshotError, "snapshot item: "+fe.Detail
			return nil, fe
		}
		if it.Position <= 0 {
			return nil, &FoldError{Reason: SnapshotError, ItemID: it.ID, Detail: "snapshot item lacks a position"}
		}
		if _, dup := fresh.items[it.ID]; dup {
			return nil, &FoldError{Reason: SnapshotError, ItemID: it.ID, Detail: "item listed twice"}
		}
		// Versions carry on across a reload, so (ID, Version) keeps
		// identifying an item's content for render caches.
		it.Version = 1
		if old := s.items[it.ID]; old != nil {
			it.Version = old.Version + 1
		}
		it.Final = IsTerminalItemStatus(it.Status)
		it.held = it.ContentLen()
		fresh.boundFullObject(it, 0)
		fresh.held += int64(it.held)
		fresh.items[it.ID] = it
		fresh.order = append(fresh.order, it)
	}
	slices.SortFunc(fresh.order, less)
	fresh.HasOlder = snap.HasOlder
	if snap.ActiveTurn != nil {
		a := *snap.ActiveTurn
		fresh.active = &a
		fresh.turn(a.TurnID).Started = true
	}
	fresh.queued = slices.Clone(snap.QueuedTurns)
	for _, raw := range snap.PendingApprovals {
		a := Approval{Params: raw}
		fillApproval(&a)
		if a.ApprovalID == "" {
			return nil, &FoldError{Reason: SnapshotError, Detail: "pending approval lacks approvalId"}
		}
		fresh.approvals = append(fresh.approvals, a)
	}
	for k, v := range snap.State {
		fresh.values[k] = v
	}
	// Keep what is local: the pending family and its bookkeeping.
	fresh.pending, fresh.pendingOrder, fresh.retired = s.pending, s.pendingOrder, s.retired
	fresh.warnings = s.warnings
	fresh.gen = s.gen + 1
	*s = *fresh
	needReplay = s.reanchorPending()
	s.trim()
	return needReplay, nil
}

// Encode returns the canonical JSON encoding of the server-derived state:
// the snapshot shape with every object's keys sorted. Two States that folded
// the same events encode to the same bytes; the pending family, warnings
// and display states are local and are not encoded.
func (s *State) Encode() []byte { return s.AppendCanonical(nil) }

// AppendCanonical appends the canonical encoding to dst.
func (s *State) AppendCanonical(dst []byte) []byte {
	dst = s.AppendCanonicalHead(dst)
	for i, it := range s.order {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = it.AppendJSON(dst)
	}
	return s.AppendCanonicalTail(dst)
}

// AppendCanonicalHead appends the canonical encoding up to its first item
// (the members sorted before "items", and `"items":[`). With the items'
// encodings, comma-separated, and AppendCanonicalTail it makes the whole
// encoding, for a caller that writes items it no longer holds (lookout
// export streams them).
func (s *State) AppendCanonicalHead(dst []byte) []byte {
	dst = append(dst, `{"activeTurn":`...)
	if s.active == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendActiveTurn(dst, s.active)
	}
	dst = append(dst, `,"cursor":`...)
	dst = appendString(dst, FormatCursor(s.SessionID, s.Cursor))
	dst = append(dst, `,"durableCursor":`...)
	dst = appendString(dst, FormatCursor(s.SessionID, s.DurableCursor))
	dst = append(dst, `,"hasOlder":`...)
	if s.HasOlder {
		dst = append(dst, "true"...)
	} else {
		dst = append(dst, "false"...)
	}
	return append(dst, `,"items":[`...)
}

// AppendCanonicalTail appends the canonical encoding after its last item:
// `]` and the members sorted after "items".
func (s *State) AppendCanonicalTail(dst []byte) []byte {
	dst = append(dst, `],"pendingApprovals":`...)
	dst = appendArray(dst, s.approvals, func(dst []byte, a Approval) []byte { return appendCanonicalRaw(dst, a.Params) })
	dst = append(dst, `,"queuedTurns":`...)
	dst = appendArray(dst, s.queued, appendQueuedTurn)
	dst = append(dst, `,"state":`...)
	m := make(map[string]any, len(s.values))
	for k, v := range s.values {
		m[k] = v
	}
	dst = appendCanonical(dst, m)
	return append(dst, '}')
}

func appendQueuedTurn(dst []byte, q QueuedTurn) []byte {
	dst = append(dst, `{"commandId":`...)
	dst = appendString(dst, q.CommandID)
	dst = append(dst, `,"text":`...)
	dst = appendString(dst, q.Text)
	dst = append(dst, `,"turnId":`...)
	dst = appendString(dst, q.TurnID)
	return append(dst, '}')
}

func appendActiveTurn(dst []byte, a *ActiveTurn) []byte {
	dst = append(dst, `{"commandId":`...)
	dst = appendString(dst, a.CommandID)
	dst = append(dst, `,"startedAt":`...)
	dst = appendString(dst, a.StartedAt)
	dst = append(dst, `,"turnId":`...)
	dst = appendString(dst, a.TurnID)
	return append(dst, '}')
}
