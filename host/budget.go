package host

import (
	"cmp"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/model"
)

// The host's memory across connections. Each connection's outbound queue
// is bounded (Options.OutboundBytes), but many connections that pipeline
// large requests without reading would add up without bound; so would
// thousands of idle sockets. The host therefore bounds, across every
// connection:
//   - the bytes queued outbound (Options.TotalOutboundBytes): past it,
//     sheddable messages are shed, a connection that must be sent a
//     message while it holds more than offenderBytes unwritten is closed
//     with 1013 (resume by cursor), and so is the one holding the most:
//     the offenders first, so that everyone else keeps streaming. Below
//     that a connection still gets its frames (a client that reads holds
//     little), so past the budget each connection adds at most about two
//     frames;
//   - the connections (Options.MaxConns): past it, an upgrade is answered
//     503 before any WebSocket exists;
//   - invalid input per connection (invalidMeter): a connection that keeps
//     sending frames that are not requests is closed with 1008.
// Memory freed by sheds is returned to the system a second after the
// last one.

const (
	// DefaultTotalOutboundBytes bounds the bytes queued outbound across
	// all connections when Options.TotalOutboundBytes is zero.
	DefaultTotalOutboundBytes = 32 << 20
	// DefaultMaxConns bounds the open connections when Options.MaxConns
	// is zero.
	DefaultMaxConns = 1024
	// DefaultMemoryLimit is the Go soft memory limit `lookout serve` sets
	// (--memory-limit; GOMEMLIMIT wins): near it the collector runs
	// harder and returns memory, so bursts of garbage from building
	// answers do not double the resident set.
	DefaultMemoryLimit = 160 << 20
)

// offenderBytes: past the budget, a connection holding more than this
// unwritten (a page answer) is closed.
const offenderBytes = PageBytes

// outbound counts the bytes queued on every connection of a host.
type outbound struct {
	bytes    atomic.Int64
	shedding atomic.Bool // a shed is under way

	mu   sync.Mutex
	free *time.Timer // returns freed memory once the sheds stop
}

// over reports whether n more bytes would pass limit (none when limit is
// not positive: a host not made by Start).
func (o *outbound) over(n, limit int) bool {
	return limit > 0 && o.bytes.Load()+int64(n) > int64(limit)
}

// shedLargest closes, in the background, the connection holding the most
// queued bytes: the one whose client reads least. One shed runs at a time.
func (h *Host) shedLargest() {
	if !h.out.shedding.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer h.out.shedding.Store(false)
		h.mu.Lock()
		var worst *conn
		var most int64
		for c := range h.conns {
			if n := c.queuedBytes.Load(); n > most {
				worst, most = c, n
			}
		}
		h.mu.Unlock()
		if worst == nil {
			return
		}
		worst.mu.Lock()
		worst.shedForBudgetLocked()
		worst.mu.Unlock()
		h.log.Warn("closed the connection holding the most queued bytes: the host's outbound budget is full", "bytes", most)
	}()
}

// shedForBudgetLocked closes the connection with 1013 for the host's
// outbound budget (once: a connection already closing is left as it is),
// counts it, and has the freed memory returned. The caller holds c.mu.
func (c *conn) shedForBudgetLocked() {
	if c.closing {
		return
	}
	c.h.budgetSheds.Add(1)
	c.closeLocked(websocket.CloseTryAgainLater, "host outbound budget full: resume by cursor")
	c.h.returnMemory()
}

// returnMemoryAfter is how long after the last shed the memory freed is
// given back to the system: once the attack has passed, not during it.
const returnMemoryAfter = time.Second

// returnMemory gives freed memory back to the system returnMemoryAfter
// after the last shed (each shed pushes it back).
func (h *Host) returnMemory() {
	h.out.mu.Lock()
	defer h.out.mu.Unlock()
	if h.out.free != nil {
		h.out.free.Reset(returnMemoryAfter)
		return
	}
	h.out.free = time.AfterFunc(returnMemoryAfter, debug.FreeOSMemory)
}

// invalidMeter is a token bucket over a connection's invalid frames
// (unparsable, not a request, unknown method, binary): a burst is
// answered, a flood closes the connection.
type invalidMeter struct {
	burst  int // Options.InvalidFrames; 0: invalidBurst, negative: no limit
	tokens float64
	last   time.Time
}

const (
	invalidBurst = 64 // invalid frames answered in a burst
	invalidRate  = 16 // and per second after it
)

// allow spends one token for an invalid frame at now, and reports whether
// the connection may go on.
func (m *invalidMeter) allow(now time.Time) bool {
	if m.burst < 0 {
		return true
	}
	burst := float64(cmp.Or(m.burst, invalidBurst))
	if m.last.IsZero() {
		m.tokens = burst
	} else {
		m.tokens = min(burst, m.tokens+now.Sub(m.last).Seconds()*invalidRate)
	}
	m.last = now
	if m.tokens < 1 {
		return false
	}
	m.tokens--
	return true
}

// heavyMethods build answers of up to PageBytes.
var heavyMethods = map[string]bool{"view/page": true, "session/subscribe": true}

// heavySlots is how many heavy answers the host builds at once.
const heavySlots = 4

// heavySlot waits for a turn to build a heavy answer; release ends it.
func (h *Host) heavySlot() (release func()) {
	if h.heavy == nil { // a host not made by Start
		return func() {}
	}
	h.heavy <- struct{}{}
	return func() { <-h.heavy }
}

// heavyRefusal decides, before a heavy answer is built, whether the host
// has room for it. Past the outbound budget it builds none: a connection
// holding more than offenderBytes unwritten is not reading and is closed
// (closed true, nothing to answer); any other gets -32001, to ask again
// once the offenders are gone.
func (c *conn) heavyRefusal() (closed bool, rerr *rpcError) {
	limit := c.h.opts.TotalOutboundBytes
	if !c.h.out.over(PageBytes, limit) {
		return false, nil
	}
	c.h.shedLargest()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.qBytes > offenderBytes {
		c.shedForBudgetLocked()
		return true, nil
	}
	return false, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: the host's outbound budget is full; retry later"}
}
