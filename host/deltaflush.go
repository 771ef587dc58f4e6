package host

import "time"

// deltaFlushDelay is how long an outbox holding only deltas waits before
// its flush. A delta is never journaled on its own (streamrec.go), so
// flushing one is only sending it; at 2,000 deltas a second a flush per
// delta spent most of the host's CPU starting and parking goroutines.
// Waiting lets about ten go out in one flush; the connection's writer
// then lingers again (deltaLinger) to send them in few frames. Any other
// event flushes at once and takes the waiting deltas along.
const deltaFlushDelay = 5 * time.Millisecond

// deltaFlush is a session's flush left waiting for more deltas. Its
// methods are called with the session's mu held.
type deltaFlush struct {
	timer   *time.Timer
	waiting bool // the timer is set and has not fired
}

// start sets the timer that runs flush after deltaFlushDelay.
func (d *deltaFlush) start(flush func()) {
	d.waiting = true
	if d.timer == nil {
		d.timer = time.AfterFunc(deltaFlushDelay, flush)
		return
	}
	d.timer.Reset(deltaFlushDelay)
}

// hurry stops a waiting flush's timer, reporting whether the caller must
// run the flush itself now. False means no flush was waiting, or its
// timer has fired and the flush is on its way.
func (d *deltaFlush) hurry() bool {
	if !d.waiting {
		return false
	}
	d.waiting = false
	return d.timer.Stop()
}

// fired records that the flush has begun.
func (d *deltaFlush) fired() { d.waiting = false }
