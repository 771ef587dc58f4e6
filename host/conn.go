package host

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// msgKind classifies an outbound message for the shedding policy.
type msgKind uint8

const (
	kindResponse  msgKind = iota // an answer: never shed
	kindDurable                  // a durable notification: never shed
	kindItemFull                 // a durable item/started|updated|completed: clears the item's shed mark
	kindDelta                    // item/delta: shed first
	kindEphemeral                // other ephemeral notifications (warning): shed
)

func (k msgKind) sheddable() bool { return k == kindDelta || k == kindEphemeral }

type outMsg struct {
	data    []byte
	kind    msgKind
	shedKey string     // session id + "\x00" + item id, for kindDelta and kindItemFull
	delta   *deltaPart // for kindDelta: what the frame says (coalesce.go)
}

const (
	// writeWait bounds one frame's write: a client that reads nothing for
	// this long is dropped.
	writeWait = 10 * time.Second
	// closeGrace is how long a connection closed with a close frame waits
	// for the client's closing handshake (reading and discarding what the
	// client still sends) before the socket is closed. Closing the socket
	// while the client's requests sit unread would reset the connection
	// and lose the close frame on the client's side (it would see 1006).
	closeGrace = 5 * time.Second
)

// conn is one WebSocket client. Its reader goroutine handles requests in
// order; its writer goroutine drains a bounded outbound queue, so that no
// session ever blocks on a slow client.
type conn struct {
	h      *Host
	ws     *websocket.Conn
	deltas atomic.Bool // false: the client opted out of item/delta
	// coalesce: the client takes a run of deltas as one (coalesce.go).
	coalesce atomic.Bool
	limit    int // queue bound in messages
	bytes    int // queue bound in bytes
	// forwarded: the requests of another fleet host (fleet_forward.go),
	// answered without a socket.
	forwarded bool
	// focus is the session this connection's user looks at, as its last
	// session/focus said ("" none): no notice goes out for it (notify.go).
	focus atomic.Pointer[string]

	mu     sync.Mutex
	q      []outMsg
	qBytes int // bytes queued or being written (the writer's batch); see queued
	// queuedBytes mirrors qBytes for the host's shed (budget.go), which
	// reads it without mu.
	queuedBytes atomic.Int64
	invalid     invalidMeter // the reader's own
	spare       []outMsg
	shed        map[string]struct{}
	closing     bool // no more messages are accepted
	flush       bool // closing after the queue drains (graceful)
	code        int  // close code to send once closing
	reason      string
	subs        map[string]*session // sessions this connection is subscribed to

	notify chan struct{}
	urgent chan struct{} // ends the writer's wait for more deltas (gatherDeltas)
	done   chan struct{}
	once   sync.Once
}

func newConn(h *Host, ws *websocket.Conn, limit, bytes int) *conn {
	c := &conn{h: h, ws: ws, limit: limit, bytes: bytes, shed: map[string]struct{}{},
		subs: map[string]*session{}, notify: make(chan struct{}, 1), urgent: make(chan struct{}, 1), done: make(chan struct{})}
	c.deltas.Store(true)
	return c
}

// enqueue queues one message. The queue is bounded both in messages
// (limit) and in bytes (bytes, counting every frame queued or being
// written, answers included); a message fits when both bounds hold, and a
// message alone in the queue always fits. Sheddable messages that do not
// fit are dropped; a delta dropped for an item also drops that item's
// later deltas on this connection until its next full-object event, so
// the client's text stays a prefix of the truth. A message that must not
// be shed and does not fit (after every queued sheddable message was
// evicted) closes the connection with 1013.
func (c *conn) enqueue(m outMsg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	switch m.kind {
	case kindDelta:
		if _, ok := c.shed[m.shedKey]; ok {
			return
		}
	case kindItemFull:
		delete(c.shed, m.shedKey)
	}
	if c.h != nil && c.h.out.over(len(m.data), c.h.opts.TotalOutboundBytes) {
		// Past the host's budget: shed what may be shed; a connection that
		// holds more than offenderBytes unwritten is not reading and is
		// closed; the one holding the most is closed too (maybe another).
		c.h.shedLargest()
		if m.kind.sheddable() {
			if m.kind == kindDelta {
				c.shed[m.shedKey] = struct{}{}
			}
			return
		}
		if c.qBytes > offenderBytes {
			c.shedForBudgetLocked()
			return
		}
	}
	if !c.fitsLocked(len(m.data)) {
		if m.kind.sheddable() {
			if m.kind == kindDelta {
				c.shed[m.shedKey] = struct{}{}
			}
			return
		}
		c.evictSheddableLocked()
		if !c.fitsLocked(len(m.data)) {
			c.closeLocked(websocket.CloseTryAgainLater, "outbound queue full: resume by cursor")
			return
		}
	}
	c.q = append(c.q, m)
	c.queued(len(m.data))
	if c.h != nil {
		c.h.noteQueued(c.qBytes)
	}
	select {
	case c.notify <- struct{}{}:
	default:
	}
	if m.kind != kindDelta || len(c.q) >= gatherBound(c.limit) {
		c.wakeUrgent()
	}
}

// queued adds n (negative: releases) to the bytes queued, here and in the
// host's count. Under mu.
func (c *conn) queued(n int) {
	c.qBytes += n
	c.queuedBytes.Add(int64(n))
	if c.h != nil {
		c.h.out.bytes.Add(int64(n))
	}
}

// wakeUrgent ends the writer's wait for more deltas, if it waits.
func (c *conn) wakeUrgent() {
	select {
	case c.urgent <- struct{}{}:
	default:
	}
}

// fitsLocked reports whether a message of n bytes fits the queue's bounds.
func (c *conn) fitsLocked(n int) bool {
	if c.qBytes == 0 && len(c.q) == 0 {
		return true
	}
	return len(c.q) < c.limit && c.qBytes+n <= c.bytes
}

func (c *conn) evictSheddableLocked() {
	kept := c.q[:0]
	for _, m := range c.q {
		if m.kind.sheddable() {
			if m.kind == kindDelta {
				c.shed[m.shedKey] = struct{}{}
			}
			c.queued(-len(m.data))
			continue
		}
		kept = append(kept, m)
	}
	for i := len(kept); i < len(c.q); i++ {
		c.q[i] = outMsg{}
	}
	c.q = kept
}

// closeLocked stops accepting messages, drops what is queued and closes the
// connection with code: the close frame goes out as soon as the frame
// being written (if any) is out, within writeWait; the socket is closed
// once the client answers the close or closeGrace passes. A client that
// reads nothing for writeWait cannot receive a close frame and is simply
// dropped.
func (c *conn) closeLocked(code int, reason string) {
	if c.closing {
		return
	}
	c.closing, c.code, c.reason = true, code, reason
	for _, m := range c.q {
		c.queued(-len(m.data))
	}
	c.q = nil
	if code == websocket.CloseTryAgainLater && c.h != nil {
		c.h.slowCloses.Add(1)
	}
	go c.sendClose(code, reason)
}

// sendClose writes the close frame and starts the closing handshake: the
// reader keeps reading (and discarding requests) until the client's close
// arrives or closeGrace passes, then the reader's exit closes the socket.
func (c *conn) sendClose(code int, reason string) {
	if err := c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(writeWait)); err != nil {
		c.ws.Close()
		return
	}
	c.mu.Lock()
	_ = c.ws.SetReadDeadline(time.Now().Add(closeGrace)) // fails only on a closed socket, which the reader sees
	c.mu.Unlock()
}

// extendRead moves the read deadline ReadTimeout ahead unless the
// connection is closing (sendClose set the closing deadline then), and
// reports whether it is still open. Both run under mu, so a deadline
// extended just before a close never outlives the closing one.
func (c *conn) extendRead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(ReadTimeout)) // fails only on a closed socket, which the reader sees
	return true
}

// isClosing reports whether the connection accepts no more messages.
func (c *conn) isClosing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closing
}

// closingWithoutFlush reports whether a close that drops what is queued
// has begun.
func (c *conn) closingWithoutFlush() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closing && !c.flush
}

// closeAfterFlush stops accepting messages and closes the connection with
// code once what is queued has been written (graceful host shutdown).
func (c *conn) closeAfterFlush(code int, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	c.closing, c.flush, c.code, c.reason = true, true, code, reason
	select {
	case c.notify <- struct{}{}:
	default:
	}
	c.wakeUrgent()
}

// writeLoop drains the queue and pings. It returns when the connection is
// done, or when a close started by closeLocked makes writing pointless
// (closeLocked's sendClose then owns the socket).
func (c *conn) writeLoop() {
	ping := time.NewTicker(PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-ping.C:
			if c.isClosing() {
				continue
			}
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				c.writeFailed()
				return
			}
			c.disarmWriteDeadline()
			continue
		case <-c.notify:
		}
		if !c.gatherDeltas() {
			return
		}
		for {
			c.mu.Lock()
			batch := c.q
			c.q = c.spare[:0]
			c.spare = nil
			closing, flush := c.closing, c.flush
			c.mu.Unlock()
			if c.coalesce.Load() {
				var saved int
				if batch, saved = coalesceDeltas(batch); saved != 0 {
					c.mu.Lock()
					c.queued(-saved)
					c.mu.Unlock()
				}
			}
			if len(batch) == 0 && flush {
				_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.code, c.reason), time.Now().Add(time.Second)) // closing either way
				c.ws.Close()
				return
			}
			if closing && !flush {
				c.dropWritten(batch) // closeLocked dropped the queue: these too
				break
			}
			if len(batch) == 0 {
				break
			}
			for i := range batch {
				// A close that flushes (closeAfterFlush) may begin while this
				// batch is written: only a close that does not flush drops
				// the rest, so the state is read again for every message.
				if i > 0 && c.closingWithoutFlush() {
					c.dropWritten(batch[i:])
					break
				}
				_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait)) // a closed socket fails the write below
				err := c.ws.WriteMessage(websocket.TextMessage, batch[i].data)
				c.dropWritten(batch[i : i+1])
				if err != nil {
					c.dropWritten(batch[i+1:])
					c.writeFailed()
					return
				}
			}
			c.mu.Lock()
			if c.spare == nil {
				c.spare = batch[:0]
			}
			c.mu.Unlock()
		}
		c.disarmWriteDeadline()
	}
}

// disarmWriteDeadline clears the socket's write deadline once the writer
// has written what it had. A deadline outlives the write it bounded: left
// armed, it would wake the idle process writeWait after every ping. Each
// write arms its own again. Once the connection is closing, sendClose
// owns the deadline (closeLocked sets closing under mu before it starts).
func (c *conn) disarmWriteDeadline() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closing {
		_ = c.ws.NetConn().SetWriteDeadline(time.Time{}) // a closed socket has none to clear
	}
}

// dropWritten forgets messages the writer has written (or given up on),
// releasing their bytes from the queue's count.
func (c *conn) dropWritten(ms []outMsg) {
	n := 0
	for i := range ms {
		n += len(ms[i].data)
		ms[i] = outMsg{}
	}
	if n == 0 {
		return
	}
	c.mu.Lock()
	c.queued(-n)
	c.mu.Unlock()
}

// writeFailed ends a connection whose write failed, unless a close frame
// is on its way (closeLocked): then sendClose decides when the socket
// closes.
func (c *conn) writeFailed() {
	c.mu.Lock()
	closing, flush := c.closing, c.flush
	c.mu.Unlock()
	if closing && !flush {
		return
	}
	c.ws.Close()
}

// finish runs once when the reader ends: the connection leaves every
// session and the host.
func (c *conn) finish() {
	c.once.Do(func() {
		c.mu.Lock()
		c.closing = true
		for _, m := range c.q {
			c.queued(-len(m.data))
		}
		c.q = nil
		subs := c.subs
		c.subs = map[string]*session{}
		c.mu.Unlock()
		for _, s := range subs {
			s.unsubscribe(c)
		}
		close(c.done)
		c.ws.Close()
		c.h.dropConn(c)
	})
}

// clearShed forgets the shed marks of one session's items.
func (c *conn) clearShed(sid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prefix := sid + "\x00"
	for k := range c.shed {
		if len(k) > len(prefix) && k[:len(prefix)] == prefix {
			delete(c.shed, k)
		}
	}
}

func (c *conn) addSub(s *session) {
	c.mu.Lock()
	c.subs[s.id] = s
	c.mu.Unlock()
}

func (c *conn) removeSub(s *session) {
	c.mu.Lock()
	delete(c.subs, s.id)
	c.mu.Unlock()
}
