package child

import (
	"context"
	"sync"
)

// Calls matches the answers a child sends to the requests a bridge sent
// it: each request gets a fresh id (made by the id function of a sequence
// number 1, 2, ...), the goroutine reading the child's output hands every
// answer to Answer, and the request's sender waits for it with Wait. Once
// closed (the child's output ended), every request still waiting fails and
// no new one starts. It is safe for concurrent use.
type Calls[K comparable, A any] struct {
	errClosed error
	id        func(seq int64) K

	mu      sync.Mutex
	seq     int64
	pending map[K]chan A
	closed  bool
}

// NewCalls returns an open table whose requests are named by id and fail
// with errClosed once it is closed.
func NewCalls[K comparable, A any](errClosed error, id func(seq int64) K) *Calls[K, A] {
	return &Calls[K, A]{errClosed: errClosed, id: id, pending: map[K]chan A{}}
}

// Call is one request waiting for its answer.
type Call[K comparable, A any] struct {
	id    K
	ch    chan A
	calls *Calls[K, A]
}

// Start registers a new request and returns it; send it with its ID. It
// fails with the closed error once the table is closed.
func (c *Calls[K, A]) Start() (*Call[K, A], error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, c.errClosed
	}
	c.seq++
	call := &Call[K, A]{id: c.id(c.seq), ch: make(chan A, 1), calls: c}
	c.pending[call.id] = call.ch
	return call, nil
}

// Answer hands a to the request named id. It returns false, dropping a,
// when no request of that name waits (not ours, or no longer waited for).
func (c *Calls[K, A]) Answer(id K, a A) bool {
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch == nil {
		return false
	}
	ch <- a
	return true
}

// Close fails every request still waiting and refuses new ones. It may be
// called more than once.
func (c *Calls[K, A]) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

// Waiting is how many requests wait for an answer.
func (c *Calls[K, A]) Waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// ID names the request: send it with the request.
func (call *Call[K, A]) ID() K { return call.id }

// Cancel forgets the request (its sending failed): an answer to it is
// dropped.
func (call *Call[K, A]) Cancel() {
	call.calls.mu.Lock()
	defer call.calls.mu.Unlock()
	delete(call.calls.pending, call.id)
}

// Wait returns the request's answer. It fails with the closed error when
// the table closes first, or with ctx's error when ctx ends first (the
// request is then forgotten).
func (call *Call[K, A]) Wait(ctx context.Context) (A, error) {
	select {
	case a, ok := <-call.ch:
		if !ok {
			return a, call.calls.errClosed
		}
		return a, nil
	case <-ctx.Done():
		call.Cancel()
		var zero A
		return zero, ctx.Err()
	}
}
