package model

import "slices"

// ReleaseSettled removes the settled head of the transcript from the
// State and returns it, oldest first: the leading items that are terminal
// (docs/protocol.md, 3. Items), up to the first open one. It is for a
// caller that streams a session out as it folds (lookout export) and so
// holds only what may still change. The State forgets the released
// items: a later full object for one of them folds as for an item never
// seen, so the caller, which knows the last position it released, tells
// such late revisions apart itself.
func (s *State) ReleaseSettled() []*Item {
	k := 0
	for k < len(s.order) && !s.order[k].IsOpen() {
		k++
	}
	if k == 0 {
		return nil
	}
	out := s.order[:k:k]
	for _, it := range out {
		delete(s.items, it.ID)
		s.held -= int64(it.held)
	}
	// A fresh slice: the released items are the caller's alone.
	s.order = slices.Clone(s.order[k:])
	s.orderShared = false
	return out
}
