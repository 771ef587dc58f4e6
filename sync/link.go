package sync

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// The link: one live connection, from dial through initialize (and, with
// no session chosen, session/list) to its drop, and the backoff before the
// next one. Subscribing and catching up are catchup.go's.

// link is one live connection and what is in flight on it.
type link struct {
	id     uint64
	conn   conn
	nextID int64
	calls  map[int64]callback

	phase linkPhase
	// sessionFocus: the host takes session/focus (initialize's features).
	sessionFocus bool
	after        *pageRequest   // the forward page in flight
	buffer       []*model.Event // live events held while catching up
	// liveAt is when the link first caught up (zero: never); the pending
	// family is reconciled at that moment, once per link.
	liveAt   time.Time
	onDrop   []func() // run when the link ends (callers waiting on it)
	watchdog alarm    // the forward page in flight took too long
	probe    alarm    // a focus probe went unanswered
}

// linkPhase is how far a link has come. A link moves forward through the
// phases, except that a live link whose gate finds a gap catches up again.
type linkPhase int

const (
	// linkInitializing: initialize is asked, not yet answered.
	linkInitializing linkPhase = iota
	// linkSubscribing: initialized; the session is being chosen
	// (session/list) or session/subscribe is in flight.
	linkSubscribing
	// linkCatchingUp: subscribed; `after` pages run forward from the
	// durable cursor while live events wait in the buffer.
	linkCatchingUp
	// linkDraining: subscribed; the catch-up reached the head and the
	// buffered live events pass the gate.
	linkDraining
	// linkLive: subscribed and caught up: live events fold as they come.
	linkLive
)

// subscribed reports whether the host answered session/subscribe on the
// link (notifications for the session are then the client's to fold).
func (p linkPhase) subscribed() bool { return p >= linkCatchingUp }

// reconciled reports whether the link has caught up once, which is when the
// pending family is reconciled on it: commands may be sent from then on.
func (lk *link) reconciled() bool { return !lk.liveAt.IsZero() }

func (l *loopState) startDial() {
	if l.link != nil || l.dialCh != nil {
		return
	}
	l.attempt.stop()
	l.nextAt = time.Time{}
	ch := make(chan dialResult, 1)
	l.dialCh = ch
	ctx, dial := l.ctx, l.dial
	if dial == nil {
		l.followLocalHost()
		dial = wsDial(l.c.cred, l.c.tls, l.deadAfter)
	}
	go func() {
		c, err := dial(ctx)
		ch <- dialResult{c, err}
	}()
	l.dirty = true
}

func (l *loopState) onDialed(r dialResult) {
	if r.err != nil {
		l.connFailed(r.err, false, 0)
		return
	}
	l.linkSeq++
	l.link = &link{id: l.linkSeq, conn: r.conn, calls: map[int64]callback{}, phase: linkInitializing}
	l.dirty = true
	l.call("initialize", map[string]any{
		"clientInfo": map[string]string{"name": l.o.ClientName, "version": clientVersion},
		// A run of deltas may come as one: the fold is the same, for a
		// fraction of the frames (the host's coalesce.go).
		"capabilities": map[string]bool{"deltas": l.o.Deltas, "coalesceDeltas": true},
	}, l.onInitialized)
}

// clientVersion is sent as clientInfo.version.
const clientVersion = "0.1.0"

func (l *loopState) onInitialized(res json.RawMessage, rerr *model.RPCError) {
	ans, refusal := decideInitialize(res, rerr)
	if refusal != "" {
		l.refuse(refusal)
		return
	}
	l.durability = ans.durability
	l.link.sessionFocus = ans.sessionFocus
	l.agentCommands = ans.agentCommands
	l.steer = ans.steer
	l.link.phase = linkSubscribing
	l.everConn = true
	if l.sessionID == "" {
		l.listSessions(nil, "", 1)
		return
	}
	l.subscribe()
}

// listSessions asks for the session/list page after cursor; acc holds the
// sessions of the pages before it, and pages counts this one.
func (l *loopState) listSessions(acc []SessionInfo, cursor string, pages int) {
	if pages == 1 {
		l.listBudget = listBudget{}
	}
	l.call("session/list", listParams(cursor), func(res json.RawMessage, rerr *model.RPCError) {
		l.onSessionList(acc, cursor, pages, res, rerr)
	})
}

func (l *loopState) onSessionList(acc []SessionInfo, cursor string, pages int, res json.RawMessage, rerr *model.RPCError) {
	if rerr != nil {
		l.dropLink(&linkError{Msg: "session/list failed: " + rerr.Message})
		return
	}
	var r listPage
	if err := json.Unmarshal(res, &r); err != nil {
		l.refuse("malformed session/list result: " + err.Error())
		return
	}
	if err := l.listBudget.take(len(r.Sessions), len(res)); err != nil {
		l.refuse(err.Error())
		return
	}
	acc = append(acc, r.Sessions...)
	if next, more := nextListCursor(cursor, r, pages); more {
		l.listSessions(acc, next, pages+1)
		return
	}
	id := pickSession(acc)
	if id == "" {
		l.sessionMissing("the host has no sessions")
		return
	}
	l.sessionID = id
	l.st = l.newState(id)
	l.gen++
	l.loadCache()
	l.subscribe()
}

// call sends a request on the current link; cb runs on the loop when the
// answer arrives. Calls die with their link (their callbacks never run).
func (l *loopState) call(method string, params any, cb callback) {
	lk := l.link
	if lk == nil {
		return
	}
	lk.nextID++
	lk.calls[lk.nextID] = cb
	lk.conn.Send(encodeRequest(lk.nextID, method, params))
}

// refuse ends the link with a persistent refusal (the host broke the
// protocol or refused us): shown as an error while retries go on.
func (l *loopState) refuse(msg string) {
	l.dropLink(&linkError{Persistent: true, Msg: msg})
}

// dropLink ends the link after a failure; the next attempt waits out the
// backoff.
func (l *loopState) dropLink(err error) { l.connFailed(err, false, l.endLink(err)) }

// redial ends the link and dials again at once, unless immediate redials
// keep failing (decideRetry then backs off).
func (l *loopState) redial(err error) { l.connFailed(err, true, l.endLink(err)) }

// endLink closes the current link (if any) after err: in-flight
// submissions are sent again on the next link, unacked entries show as
// retrying, and a history page in flight is forgotten. It returns how long
// the link was live (0 if it never caught up).
func (l *loopState) endLink(err error) time.Duration {
	lk := l.link
	if lk == nil {
		return 0
	}
	var liveFor time.Duration
	if lk.reconciled() {
		liveFor = max(l.clock.Now().Sub(lk.liveAt), time.Nanosecond)
	}
	l.closeLink()
	for _, cs := range l.cmds {
		cs.inflight = false
	}
	for _, a := range l.answers {
		a.inflight = false // sent again on the next link
	}
	for _, p := range l.st.Pending() {
		if !p.Acked {
			l.st.SetPendingStatus(p.CommandID, model.PendingRetrying)
		}
	}
	l.older = nil
	if l.start != nil {
		l.start.asking = nil // its page died with the link
	}
	l.log.Debug("link dropped", "err", err, "liveFor", liveFor)
	return liveFor
}

// closeLink closes the socket, stops the link's alarms, and tells whoever
// waits on the link that it ended.
func (l *loopState) closeLink() {
	lk := l.link
	lk.conn.Close()
	lk.watchdog.stop()
	lk.probe.stop()
	l.link = nil
	for _, f := range lk.onDrop {
		f()
	}
}

func (l *loopState) lostError() error {
	msg := "connection lost"
	if l.link != nil && l.link.conn.Err() != nil {
		msg += ": " + l.link.conn.Err().Error()
	}
	return &linkError{Msg: msg}
}

// connFailed records a failed attempt or a lost connection (live for
// liveFor) and schedules the next attempt with backoff (decideRetry: at
// once when immediate and nothing failed recently).
func (l *loopState) connFailed(err error, immediate bool, liveFor time.Duration) {
	msg := err.Error()
	var ce *linkError
	errors.As(err, &ce)
	if ce == nil {
		ce = &linkError{Msg: msg}
	}
	l.lastErr, l.lastReason = msg, ce.reason()
	if ce.Persistent {
		l.refusal, l.refusalReason = msg, ce.reason()
	}
	if l.userRetry {
		// The user's retry failed: back to error, with its message.
		l.userRetry = false
		l.refusal, l.refusalReason = msg, ce.reason()
	}
	if ce.Persistent && finalRefusal(ce.reason()) {
		// Final: nothing retries in the background (nosession.go).
		l.attempt.stop()
		l.nextAt = time.Time{}
		l.dirty = true
		return
	}
	d := l.scaled(l.bo.Drop(immediate, liveFor, l.scaled(healthyAfter)))
	l.nextAt = l.clock.Now().Add(d)
	l.attempt.arm(l.clock, d)
	l.dirty = true
}
