package host

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lookout-sh/lookout/model"
)

// The session's fold holds every turn, approval and value but not every
// item: only the newest ones (what a snapshot sends) and every open one
// (what deltas and the next revisions build on). The index (positions,
// fullSeq) knows every item, and the journal holds each item's latest
// full object, so a snapshot or page that needs an item the fold let go
// reads it from there. A session's memory is then its index, a few dozen
// bytes an item, however long its items are.
const (
	// foldKeepItems and foldKeepBytes: a compaction keeps the newest items
	// up to this many, or up to this much content, whichever comes first
	// (a snapshot holds at most MaxPageLimit items and PageBytes of them).
	foldKeepItems = MaxPageLimit
	foldKeepBytes = 2 * PageBytes
	// foldSlackItems and foldSlackBytes: the fold compacts once it has
	// grown this much since its last compaction, so that a compaction's
	// cost (re-reading what it keeps) is shared by as many new items.
	foldSlackItems = MaxPageLimit
	foldSlackBytes = 4 * PageBytes
)

// foldMark is the fold's size just after a compaction.
type foldMark struct {
	items int
	bytes int64
}

// maybeCompactLocked compacts the fold when it has grown enough.
func (s *session) maybeCompactLocked() {
	if s.state.Len()-s.foldMark.items < foldSlackItems && s.state.HeldBytes()-s.foldMark.bytes < foldSlackBytes {
		return
	}
	if err := s.compactLocked(); err != nil {
		// The fold stays whole: correct, only larger.
		s.h.log.Error("could not compact a session's fold", "session", s.id, "err", err)
	}
}

// compactLocked replaces the fold by one holding the same turns,
// approvals, values and cursors, and only the items keepItems chooses
// (handed over as they are, not re-encoded).
func (s *session) compactLocked() error {
	items := s.state.Items()
	keep := keepItems(items)
	fresh := model.NewState(s.id)
	fresh.Epoch = s.epoch
	if _, err := fresh.LoadSnapshot(s.id, s.epoch, s.foldWithoutItemsLocked()); err != nil {
		return err
	}
	events := make([]*model.Event, len(keep))
	for i, it := range keep {
		method := model.MethodItemUpdated
		if !it.IsOpen() {
			method = model.MethodItemCompleted
		}
		events[i] = &model.Event{Method: method, SessionID: s.id, Seq: it.Position, Item: it}
	}
	if err := fresh.ApplyOlder(events, len(keep) < len(items) || s.state.HasOlder); err != nil {
		return err
	}
	s.state = fresh
	s.foldMark = foldMark{items: fresh.Len(), bytes: fresh.HeldBytes()}
	return nil
}

// foldWithoutItemsLocked is the fold's snapshot without its items: the
// cursors, turns, approvals and values.
func (s *session) foldWithoutItemsLocked() model.Snapshot {
	snap, _ := s.state.SnapshotWithin(1, 1) // one item at most, and it does not fit in one byte
	snap.Items = []json.RawMessage{}
	return snap
}

// keepItems picks what a compaction keeps of the fold's items (in
// transcript order): the newest, within foldKeepItems and foldKeepBytes,
// and every open item.
func keepItems(items []*model.Item) []*model.Item {
	keep := make([]*model.Item, 0, min(len(items), foldKeepItems+16))
	n, size := 0, 0
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		newest := n < foldKeepItems && size < foldKeepBytes
		if newest || it.IsOpen() {
			keep = append(keep, it)
		}
		if newest {
			n++
			size += it.ContentLen()
		}
	}
	slices.Reverse(keep)
	return keep
}

// snapshotLocked is subscribe's snapshot: the fold's turns, approvals and
// values with the newest limit items whose encodings fit PageBytes (at
// least one); hasOlder when it leaves any item out.
func (s *session) snapshotLocked(limit int) (model.Snapshot, error) {
	snap := s.foldWithoutItemsLocked()
	start := max(0, len(s.positions)-limit)
	entries := s.positions[start:]
	bodies, err := s.itemBodiesLocked(entries)
	if err != nil {
		return model.Snapshot{}, err
	}
	first, size := len(entries), 0
	for i := len(entries) - 1; i >= 0; i-- {
		size += len(bodies[i])
		if size > PageBytes && i < len(entries)-1 {
			break
		}
		first = i
	}
	snap.Items = bodies[first:]
	snap.HasOlder = start > 0 || first > 0
	return snap, nil
}

// itemBodiesLocked encodes the items of entries as the fold would: from
// the fold when it holds them, else from their latest full-object events
// in the journal.
func (s *session) itemBodiesLocked(entries []posEntry) ([]json.RawMessage, error) {
	bodies := make([]json.RawMessage, len(entries))
	var missing []int64
	for i, e := range entries {
		if it := s.state.Item(e.id); it != nil {
			bodies[i] = it.AppendJSON(nil)
		} else {
			missing = append(missing, s.fullSeq[e.id])
		}
	}
	if len(missing) == 0 {
		return bodies, nil
	}
	slices.Sort(missing)
	evs, err := s.h.j.readSeqs(s.id, missing)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]json.RawMessage, len(evs))
	for _, e := range evs {
		ev, err := model.DecodeNotification(e.Method, e.Params)
		if err != nil || ev.Item == nil {
			return nil, fmt.Errorf("journal: session %s: seq %d: not an item event (%w)", s.id, e.Seq, err)
		}
		byID[ev.Item.ID] = ev.Item.AppendJSON(nil)
	}
	for i, e := range entries {
		if bodies[i] == nil {
			b, ok := byID[e.id]
			if !ok {
				return nil, fmt.Errorf("journal: session %s: item %s: its latest event is missing", s.id, e.id)
			}
			bodies[i] = b
		}
	}
	return bodies, nil
}

// foldHeldItemsLocked folds, into a fold that has every event but the
// items', the latest full objects of the items a compaction would keep:
// the newest and every open one (loading reads only those).
func (s *session) foldHeldItemsLocked() error {
	const chunk = 256
	var events []*model.Event
	n, size := 0, 0
	held := map[string]bool{}
	read := func(entries []posEntry) error {
		seqs := make([]int64, len(entries))
		for i, e := range entries {
			seqs[i] = s.fullSeq[e.id]
		}
		slices.Sort(seqs)
		evs, err := s.h.j.readSeqs(s.id, seqs)
		if err != nil {
			return err
		}
		for _, e := range evs {
			ev, err := model.DecodeNotification(e.Method, e.Params)
			if err != nil || ev.Item == nil {
				return fmt.Errorf("seq %d: not an item event (%w)", e.Seq, err)
			}
			if _, open := s.open[ev.Item.ID]; !open {
				// Final once completed, whatever revised it since.
				ev.Method = model.MethodItemCompleted
			}
			held[ev.Item.ID] = true
			events = append(events, ev)
			n++
			size += ev.Item.ContentLen()
		}
		return nil
	}
	for end := len(s.positions); end > 0 && n < foldKeepItems && size < foldKeepBytes; {
		start := max(0, end-min(chunk, foldKeepItems-n))
		if err := read(s.positions[start:end]); err != nil {
			return err
		}
		end = start
	}
	var open []posEntry
	for id := range s.open {
		if !held[id] {
			open = append(open, posEntry{id: id})
		}
	}
	if len(open) > 0 {
		if err := read(open); err != nil {
			return err
		}
	}
	slices.SortFunc(events, func(a, b *model.Event) int {
		return cmp.Or(cmp.Compare(a.Item.Position, b.Item.Position), cmp.Compare(a.Item.ID, b.Item.ID))
	})
	if err := s.state.ApplyOlder(events, len(events) < len(s.positions)); err != nil {
		return err
	}
	s.foldMark = foldMark{items: s.state.Len(), bytes: s.state.HeldBytes()}
	return nil
}
