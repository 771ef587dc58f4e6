package bridge

import "sync"

// Registry holds a bridge's live per-session children, by Lookout session
// id: S is the bridge's own per-session type (a pointer). Once closed it
// refuses new entries, so no child starts after the host closed the
// agent. It is safe for concurrent use.
type Registry[S comparable] struct {
	errClosed error

	mu      sync.Mutex
	entries map[string]S
	closed  bool
}

// NewRegistry returns an empty registry whose Err, Get and Add return
// errClosed once it is closed.
func NewRegistry[S comparable](errClosed error) *Registry[S] {
	return &Registry[S]{errClosed: errClosed, entries: map[string]S{}}
}

// Err is nil while the registry is open, and the closed error after Close:
// what the bridge's Launch returns.
func (r *Registry[S]) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return r.errClosed
	}
	return nil
}

// Get returns the session's entry (the zero S when it has none), or the
// closed error after Close.
func (r *Registry[S]) Get(sessionID string) (S, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		var zero S
		return zero, r.errClosed
	}
	return r.entries[sessionID], nil
}

// Add makes s the session's entry. After Close it adds nothing and returns
// the closed error: the caller stops s itself.
func (r *Registry[S]) Add(sessionID string, s S) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return r.errClosed
	}
	r.entries[sessionID] = s
	return nil
}

// Forget drops the session's entry if it is still s (a child that has
// gone); a newer entry stays.
func (r *Registry[S]) Forget(sessionID string, s S) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.entries[sessionID] == s {
		delete(r.entries, sessionID)
	}
}

// Remove drops the session's entry and returns it (ok false when it had
// none), for the caller to stop: the session is gone.
func (r *Registry[S]) Remove(sessionID string) (s S, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok = r.entries[sessionID]
	delete(r.entries, sessionID)
	return s, ok
}

// Close closes the registry, empties it, and calls stop for every entry
// it held, all at once, returning when every stop has returned.
func (r *Registry[S]) Close(stop func(S)) {
	r.mu.Lock()
	r.closed = true
	entries := r.entries
	r.entries = map[string]S{}
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop(s)
		}()
	}
	wg.Wait()
}
