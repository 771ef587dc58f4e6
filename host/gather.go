package host

import "time"

// deltaLinger is how long the writer lets item/delta frames gather when
// nothing but deltas is queued. A client then reads a stream's deltas
// many at a time, one socket read and one fold batch for a few dozen,
// instead of one of each per delta: at 2,000 deltas a second about 20 go
// out together. The frames themselves are unchanged, and anything else
// queued (a durable event, an answer, a close) is written at once.
const deltaLinger = 10 * time.Millisecond

// gatherBound is how many queued messages end the wait at once, so that
// gathering never pushes a queue towards its bound (and a delta towards
// being shed).
func gatherBound(limit int) int {
	return max(1, min(64, limit/4))
}

// gatherDeltas waits up to deltaLinger before the writer takes the queue,
// when the queue holds deltas only. It reports false when the connection
// is done.
func (c *conn) gatherDeltas() bool {
	if !c.onlyDeltasQueued() {
		return true
	}
	t := time.NewTimer(deltaLinger)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.urgent:
	case <-c.done:
		return false
	}
	return true
}

// onlyDeltasQueued reports whether the queue holds item/delta frames and
// nothing else, fewer than gatherBound of them, with no close begun.
func (c *conn) onlyDeltasQueued() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || len(c.q) == 0 || len(c.q) >= gatherBound(c.limit) {
		return false
	}
	for i := range c.q {
		if c.q[i].kind != kindDelta {
			return false
		}
	}
	return true
}
