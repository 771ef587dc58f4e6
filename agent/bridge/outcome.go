package bridge

import "context"

// Outcome carries a running turn's outcome, once, from whoever learns it
// first (the turn's end from the agent, the child's death, an interrupt
// that timed out) to the goroutine running the turn, which receives it
// from Done. It has no lock of its own: the turn state's lock guards
// Finish and Finished, so a fold can ask whether the turn has ended while
// it holds that lock. Done may be read without it.
type Outcome struct {
	done     chan error
	finished bool
}

// NewOutcome returns an outcome not known yet.
func NewOutcome() *Outcome { return &Outcome{done: make(chan error, 1)} }

// Finish reports err (nil: the turn completed) as the outcome, unless one
// was reported before: the first one counts.
func (o *Outcome) Finish(err error) {
	if !o.finished {
		o.finished = true
		o.done <- err
	}
}

// Finished reports whether the outcome is known.
func (o *Outcome) Finished() bool { return o.finished }

// Done receives the outcome once it is known.
func (o *Outcome) Done() <-chan error { return o.done }

// EndsBefore waits for the outcome until ctx ends and reports whether it
// came first. The outcome is dropped: the caller already knows what to
// return (an interrupted turn waiting for the agent to stop).
func (o *Outcome) EndsBefore(ctx context.Context) bool {
	select {
	case <-o.done:
		return true
	case <-ctx.Done():
		return false
	}
}
