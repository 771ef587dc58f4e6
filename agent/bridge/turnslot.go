package bridge

import "sync"

// TurnSlot holds a session's running turn (T is the bridge's own turn
// state), one at a time, and whether the session's child has gone. The
// turn's goroutine fills and empties it; the dispatch goroutine reads it
// to hand the child's messages to the turn. It is safe for concurrent use;
// the zero value is empty and alive.
type TurnSlot[T any] struct {
	mu   sync.Mutex
	turn *T
	dead bool
}

// Begin makes t the running turn. It returns false, changing nothing, when
// the child has gone: the turn cannot run.
func (s *TurnSlot[T]) Begin(t *T) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead {
		return false
	}
	s.turn = t
	return true
}

// End empties the slot if t is still its turn.
func (s *TurnSlot[T]) End(t *T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn == t {
		s.turn = nil
	}
}

// Current is the running turn, nil when none runs.
func (s *TurnSlot[T]) Current() *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn
}

// Alive reports whether the child is still there (Die was not called).
func (s *TurnSlot[T]) Alive() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.dead
}

// Die marks the child gone, so no turn begins any more, and returns the
// turn that was running (nil when none), for the caller to fail.
func (s *TurnSlot[T]) Die() *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dead = true
	return s.turn
}
