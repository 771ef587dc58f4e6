package model

import (
	"cmp"
	"slices"
)

// own returns a copy of a published item that this State may mutate.
func (s *State) own(it *Item) *Item {
	c := it.clone()
	c.gen = s.gen
	s.items[c.ID] = c
	s.replaceInOrder(it, c)
	return c
}

// less orders the transcript: by position, then item id (docs/protocol.md,
// 3. Items).
func less(a, b *Item) int {
	return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
}

func (s *State) index(it *Item) (int, bool) {
	return slices.BinarySearchFunc(s.order, it, less)
}

func (s *State) writableOrder() {
	if s.orderShared {
		s.order = slices.Clone(s.order)
		s.orderShared = false
	}
}

func (s *State) replaceInOrder(old, nw *Item) {
	i, ok := s.index(old)
	if !ok {
		s.insertInOrder(nw)
		return
	}
	s.writableOrder()
	s.order[i] = nw
}

func (s *State) removeFromOrder(it *Item) {
	if i, ok := s.index(it); ok {
		s.writableOrder()
		s.order = slices.Delete(s.order, i, i+1)
	}
}

func (s *State) insertInOrder(it *Item) {
	n := len(s.order)
	if n == 0 || less(s.order[n-1], it) < 0 {
		// Appending never rewrites what a View holds (it holds order[:n:n]).
		s.order = append(s.order, it)
		return
	}
	i, _ := s.index(it)
	s.writableOrder()
	s.order = slices.Insert(s.order, i, it)
}

// OldestPosition is the position of the oldest held item (0 if none).
func (s *State) OldestPosition() int64 {
	if len(s.order) == 0 {
		return 0
	}
	return s.order[0].Position
}

// LastPosition is the position of the newest held item (0 if none).
func (s *State) LastPosition() int64 {
	if len(s.order) == 0 {
		return 0
	}
	return s.order[len(s.order)-1].Position
}
