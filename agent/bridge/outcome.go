package bridge

import (
	"context"
	"sync"
)

// Outcome is a running turn's result, known once: whoever learns it first
// (the agent ending the turn, the child's death, an interrupt) reports it
// with Finish, and the goroutine running the turn waits on Done and
// returns Err. Later reports are dropped. It is safe for concurrent use.
type Outcome struct {
	once sync.Once
	done chan struct{}
	err  error // set before done is closed
}

// NewOutcome returns an outcome not known yet.
func NewOutcome() *Outcome { return &Outcome{done: make(chan struct{})} }

// Finish reports err (nil: the turn completed) as the outcome, unless one
// was reported before: the first one counts.
func (o *Outcome) Finish(err error) {
	o.once.Do(func() {
		o.err = err
		close(o.done)
	})
}

// Done is closed once the outcome is known.
func (o *Outcome) Done() <-chan struct{} { return o.done }

// Finished reports whether the outcome is known.
func (o *Outcome) Finished() bool {
	select {
	case <-o.done:
		return true
	default:
		return false
	}
}

// Err is the outcome: the error Finish reported first, nil while none was
// (see Finished).
func (o *Outcome) Err() error {
	select {
	case <-o.done:
		return o.err
	default:
		return nil
	}
}

// EndsBefore waits for the outcome until ctx ends and reports whether it
// came first (an interrupted turn waiting for the agent to stop).
func (o *Outcome) EndsBefore(ctx context.Context) bool {
	select {
	case <-o.done:
		return true
	case <-ctx.Done():
		return false
	}
}
