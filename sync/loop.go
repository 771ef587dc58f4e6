package sync

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// Timing of the client's own guards.
const (
	// pageWatchdog: a catch-up page that is not answered within this long
	// means the connection made no progress: it is dropped and reconnected.
	pageWatchdog = 15 * time.Second
	// probeTimeout: how long a focus probe may take (seed 003).
	probeTimeout = 3 * time.Second
	// cacheEvery: the replica cache is written at most this often.
	cacheEvery = 2 * time.Second
	// maxErrors and maxReturned bound the published lists.
	maxErrors   = 16
	maxReturned = 32
	// drainBatch: frames folded per published View at most.
	drainBatch = 512
)

// callback receives a response: the result or the error.
type callback func(result json.RawMessage, rerr *model.RPCError)

// link is one live connection and what is in flight on it.
type link struct {
	id     uint64
	ws     *wsConn
	nextID int64
	calls  map[int64]callback

	initialized bool
	subscribed  bool
	catchingUp  bool
	caughtUp    bool
	reconciled  bool

	after  *pageRequest   // the forward page in flight
	buffer []*model.Event // live events held while catching up
	liveAt time.Time      // when the link first caught up (zero: never)
	onDrop []func()       // run when the link ends (callers waiting on it)
	dog    *time.Timer    // page watchdog
	probe  *time.Timer    // focus probe
	dogC   <-chan time.Time
	probeC <-chan time.Time
}

// cmdState is the client's bookkeeping for one pending submission.
type cmdState struct {
	attempts int
	inflight bool
	linkID   uint64
	retryAt  time.Time
}

type dialResult struct {
	ws  *wsConn
	err error
}

// loopState is everything the Run goroutine owns.
type loopState struct {
	c   *Client
	o   Options
	log *slog.Logger

	st         *model.State
	sessionID  string
	authority  bool   // st's cursor and epoch may be used to resume
	gen        uint64 // replacement generation: bumped on every state replacement
	durability string
	painted    bool // the View shows the replica cache's range only

	ctx       context.Context
	link      *link
	linkSeq   uint64
	dialCh    chan dialResult
	bo        backoff
	attemptT  *time.Timer
	attemptC  <-chan time.Time
	refusal   string
	userRetry bool
	// refusalReason and lastReason classify refusal and lastErr.
	refusalReason string
	lastReason    string
	everConn      bool
	lastErr       string
	nextAt        time.Time

	errors       []string
	errorCount   uint64
	launchWhy    map[string]string // commandId -> why its turn failed to launch (failed.go)
	returned     []model.Retirement
	returnedBase uint64

	cmds   map[string]*cmdState
	retryT *time.Timer
	retryC <-chan time.Time

	older *pageRequest

	cache cacheState

	dirty bool

	// timeScale shrinks backoff waits in tests (0 means 1).
	timeScale float64
	// deadAfter is the silence after which a connection is dead (the
	// protocol's 45 s; tests shorten it).
	deadAfter time.Duration
}

// scaled applies the test time scale to a wait.
func (l *loopState) scaled(d time.Duration) time.Duration {
	if l.timeScale > 0 {
		return time.Duration(float64(d) * l.timeScale)
	}
	return d
}

func newLoopState(c *Client) *loopState {
	l := &loopState{
		c:            c,
		o:            c.opts,
		log:          c.opts.Logger,
		sessionID:    c.opts.SessionID,
		cmds:         map[string]*cmdState{},
		returnedBase: 1,
		deadAfter:    deadAfter,
	}
	l.st = l.newState(c.opts.SessionID)
	return l
}

// newState is an empty fold for a session, with the client's bounds.
func (l *loopState) newState(sessionID string) *model.State {
	st := model.NewState(sessionID)
	st.SetLimits(l.o.limits())
	return st
}

// takeDiagnostics records the fold's non-fatal findings (a client bound
// cut, a toolCall transition out of order) as errors.
func (l *loopState) takeDiagnostics() {
	for _, d := range l.st.TakeDiagnostics() {
		l.addError(d.Error())
	}
}

// run is the Run goroutine's loop.
func (l *loopState) run(ctx context.Context) {
	l.ctx = ctx
	defer l.shutdown()
	l.startDial()
	l.publish()
	for {
		var frames <-chan []byte
		var dead <-chan struct{}
		if l.link != nil {
			frames, dead = l.link.ws.frames, l.link.ws.dead
		}
		select {
		case <-ctx.Done():
			return
		case <-l.c.wake:
			l.runOps()
		case r := <-l.dialCh:
			l.dialCh = nil
			l.onDialed(r)
		case <-l.attemptC:
			l.attemptC = nil
			l.startDial()
		case raw := <-frames:
			l.onFrame(raw)
			for i := 0; i < drainBatch && l.link != nil; i++ {
				select {
				case raw = <-l.link.ws.frames:
					l.onFrame(raw)
					continue
				default:
				}
				break
			}
		case <-dead:
			// Fold what arrived before the end, then drop the link.
			for lk := l.link; l.link == lk && len(lk.ws.frames) > 0; {
				l.onFrame(<-lk.ws.frames)
			}
			if l.link != nil {
				l.dropLink(l.lostError(), false)
			}
		case <-l.linkDogC():
			l.dropLink(&connError{Msg: "catch-up made no progress for 15 s"}, false)
		case <-l.linkProbeC():
			l.dropLink(&connError{Msg: "the host did not answer a probe within 3 s"}, true)
		case <-l.retryC:
			l.retryC = nil
			l.retryDue()
		case <-l.cache.tickC:
			l.cache.tickC = nil
			l.writeCache(false)
		case err := <-l.cache.doneC:
			l.cacheWritten(err)
		}
		l.takeRetirements()
		if l.dirty {
			l.publish()
		}
	}
}

func (l *loopState) linkDogC() <-chan time.Time {
	if l.link == nil {
		return nil
	}
	return l.link.dogC
}

func (l *loopState) linkProbeC() <-chan time.Time {
	if l.link == nil {
		return nil
	}
	return l.link.probeC
}

func (l *loopState) lostError() error {
	msg := "connection lost"
	if l.link != nil && l.link.ws.err != nil {
		msg += ": " + l.link.ws.err.Error()
	}
	return &connError{Msg: msg}
}

func (l *loopState) runOps() {
	for _, op := range l.c.takeOps() {
		op()
		l.dirty = true
	}
}

func (l *loopState) shutdown() {
	if l.link != nil {
		if l.link.subscribed {
			// Leaving the view: tell the host to stop sending (seed 001's
			// unsubscribe on view switch), then close.
			l.link.nextID++
			l.link.ws.CloseAfter(encodeRequest(l.link.nextID, "session/unsubscribe", map[string]any{"sessionId": l.sessionID}))
		}
		l.link.ws.Close()
		l.stopLinkTimers(l.link)
		for _, f := range l.link.onDrop {
			f()
		}
		l.link = nil
	}
	if ch := l.dialCh; ch != nil {
		go func() {
			if r := <-ch; r.ws != nil {
				r.ws.Close()
			}
		}()
	}
	if l.attemptT != nil {
		l.attemptT.Stop()
	}
	if l.retryT != nil {
		l.retryT.Stop()
	}
	l.runOps()
	l.takeRetirements()
	l.writeCache(true)
	l.publish()
}

// ---- connection lifecycle -------------------------------------------------

func (l *loopState) startDial() {
	if l.link != nil || l.dialCh != nil {
		return
	}
	if l.attemptT != nil {
		l.attemptT.Stop()
		l.attemptC = nil
	}
	l.nextAt = time.Time{}
	ch := make(chan dialResult, 1)
	l.dialCh = ch
	ctx, cred, tlsConf, silence := l.ctx, l.c.cred, l.c.tls, l.deadAfter
	go func() {
		ws, err := dialWS(ctx, cred, tlsConf, silence)
		ch <- dialResult{ws, err}
	}()
	l.dirty = true
}

func (l *loopState) onDialed(r dialResult) {
	if r.err != nil {
		l.connFailed(r.err, false, 0)
		return
	}
	l.linkSeq++
	l.link = &link{id: l.linkSeq, ws: r.ws, calls: map[int64]callback{}}
	l.dirty = true
	l.call("initialize", map[string]any{
		"clientInfo":   map[string]string{"name": l.o.ClientName, "version": clientVersion},
		"capabilities": map[string]bool{"deltas": l.o.Deltas},
	}, l.onInitialized)
}

// clientVersion is sent as clientInfo.version.
const clientVersion = "0.1.0"

func (l *loopState) onInitialized(res json.RawMessage, rerr *model.RPCError) {
	if rerr != nil {
		l.dropLink(&connError{Persistent: true, Msg: "the host refused initialize: " + rerr.Message}, false)
		return
	}
	var r struct {
		ProtocolVersion int    `json:"protocolVersion"`
		Durability      string `json:"durability"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		l.dropLink(&connError{Persistent: true, Msg: "malformed initialize result: " + err.Error()}, false)
		return
	}
	if r.ProtocolVersion != 1 {
		l.dropLink(&connError{Persistent: true, Msg: "the host speaks protocol version " + strconv.Itoa(r.ProtocolVersion) + ", this client speaks 1"}, false)
		return
	}
	l.durability = r.Durability
	l.link.initialized = true
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
	l.call("session/list", listParams(cursor), func(res json.RawMessage, rerr *model.RPCError) {
		l.onSessionList(acc, cursor, pages, res, rerr)
	})
}

func (l *loopState) onSessionList(acc []SessionInfo, cursor string, pages int, res json.RawMessage, rerr *model.RPCError) {
	if rerr != nil {
		l.dropLink(&connError{Msg: "session/list failed: " + rerr.Message}, false)
		return
	}
	var r listPage
	if err := json.Unmarshal(res, &r); err != nil {
		l.dropLink(&connError{Persistent: true, Msg: "malformed session/list result: " + err.Error()}, false)
		return
	}
	acc = append(acc, r.Sessions...)
	if next, more := nextListCursor(cursor, r, pages); more {
		l.listSessions(acc, next, pages+1)
		return
	}
	id := pickSession(acc)
	if id == "" {
		l.giveBackAll("the host has no sessions")
		l.dropLink(&connError{Persistent: true, Reason: ReasonNoSession, Msg: "the host has no sessions"}, false)
		return
	}
	l.sessionID = id
	l.st = l.newState(id)
	l.gen++
	l.loadCache()
	l.subscribe()
}

// dropLink ends the current connection and schedules the next attempt.
func (l *loopState) dropLink(err error, immediate bool) {
	var liveFor time.Duration
	if lk := l.link; lk != nil {
		if !lk.liveAt.IsZero() {
			liveFor = max(l.o.Now().Sub(lk.liveAt), time.Nanosecond)
		}
		lk.ws.Close()
		l.stopLinkTimers(lk)
		l.link = nil
		for _, f := range lk.onDrop {
			f()
		}
		for _, cs := range l.cmds {
			cs.inflight = false
		}
		for _, p := range l.st.Pending() {
			if !p.Acked {
				l.st.SetPendingStatus(p.CommandID, model.PendingRetrying)
			}
		}
		l.older = nil
		l.log.Debug("link dropped", "err", err, "liveFor", liveFor)
	}
	l.connFailed(err, immediate, liveFor)
}

func (l *loopState) stopLinkTimers(lk *link) {
	if lk.dog != nil {
		lk.dog.Stop()
	}
	if lk.probe != nil {
		lk.probe.Stop()
	}
	lk.dogC, lk.probeC = nil, nil
}

// connFailed records a failed attempt or a lost connection (live for
// liveFor) and schedules the next attempt with backoff (decideRetry: at
// once when immediate and nothing failed recently).
func (l *loopState) connFailed(err error, immediate bool, liveFor time.Duration) {
	msg := err.Error()
	ce, _ := err.(*connError)
	if ce == nil {
		ce = &connError{Msg: msg}
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
		if l.attemptT != nil {
			l.attemptT.Stop()
		}
		l.attemptC, l.nextAt = nil, time.Time{}
		l.dirty = true
		return
	}
	d := l.scaled(l.bo.Drop(immediate, liveFor, l.scaled(healthyAfter)))
	l.nextAt = l.o.Now().Add(d)
	if l.attemptT == nil {
		l.attemptT = time.NewTimer(d)
	} else {
		l.attemptT.Stop()
		l.attemptT.Reset(d)
	}
	l.attemptC = l.attemptT.C
	l.dirty = true
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
	lk.ws.Send(encodeRequest(lk.nextID, method, params))
}

// ---- frames ------------------------------------------------------------------

func (l *loopState) onFrame(raw []byte) {
	f, err := model.ParseFrame(raw)
	if err != nil {
		l.addError(err.Error())
		return
	}
	if f.Method == "" {
		l.onResponse(f)
		return
	}
	ev, err := f.Event() // the frame was checked to be JSON once, by ParseFrame
	if err != nil {
		l.addError(err.Error())
		if ev == nil {
			return
		}
		// An unknown method with a valid cursor: reported, and stepped
		// over in order (apply passes it) so continuity holds.
	}
	l.onNotification(ev)
}

func (l *loopState) onResponse(f *model.Frame) {
	id, err := strconv.ParseInt(string(f.ID), 10, 64)
	if err != nil {
		msg := "host error response without a request id"
		if f.Error != nil {
			msg += ": " + f.Error.Message
		}
		l.addError(msg)
		return
	}
	lk := l.link
	cb, ok := lk.calls[id]
	if !ok {
		l.addError("response to an unknown request id " + string(f.ID))
		return
	}
	delete(lk.calls, id)
	cb(f.Result, f.Error)
}

func (l *loopState) onNotification(ev *model.Event) {
	lk := l.link
	if lk == nil || !lk.subscribed || ev.SessionID != l.sessionID {
		// Not (yet) ours: nothing to fold. Notifications follow the
		// subscribe answer, so this is another session's stream.
		return
	}
	if lk.catchingUp {
		lk.buffer = append(lk.buffer, ev)
		return
	}
	l.gateLive(ev)
}

// gateLive passes one live event through the gate.
func (l *loopState) gateLive(ev *model.Event) {
	switch gateEvent(ev, l.st.Cursor, l.st.DurableCursor) {
	case drop:
	case gap:
		l.c.stats.gaps.Add(1)
		l.link.buffer = append(l.link.buffer, ev)
		l.startCatchUp()
	case apply:
		l.apply(ev)
	}
}

// apply folds one event that passed the gate. A durable event the fold
// refuses is recorded as an error and stepped over (its seq still becomes
// the durable cursor), so that one bad event cannot wedge continuity.
func (l *loopState) apply(ev *model.Event) {
	if _, known := model.IsDurable(ev.Method); !known {
		// Already reported when decoded: step over it.
		l.st.Pass(ev)
		return
	}
	var failing []string
	if ev.Method == model.MethodTurnCompleted && ev.Status == model.StatusFailed {
		failing = l.pendingOfTurn(ev.TurnID)
	}
	if err := l.st.Apply(ev); err != nil {
		l.addError(err.Error())
		if ev.Durable {
			l.st.Pass(ev)
		}
		return
	}
	for _, cid := range failing {
		l.noteLaunch(cid, ev.TurnID)
	}
	l.dirty = true
	l.painted = false
	l.takeDiagnostics()
	if l.o.OnEvent != nil {
		l.o.OnEvent(ev)
	}
	if ev.Durable {
		l.cacheDirty()
	}
}

// ---- subscribe and catch-up ---------------------------------------------

func (l *loopState) subscribe() {
	p := map[string]any{"sessionId": l.sessionID, "limit": l.o.SubscribeLimit}
	if l.authority && l.st.Epoch != "" {
		p["cursor"] = model.FormatCursor(l.sessionID, l.st.Cursor)
		p["epoch"] = l.st.Epoch
	}
	l.call("session/subscribe", p, l.onSubscribed)
}

type subscribeResult struct {
	Epoch    string          `json:"epoch"`
	Head     string          `json:"head"`
	Delivery string          `json:"delivery"`
	Snapshot *model.Snapshot `json:"snapshot"`
}

func (l *loopState) onSubscribed(res json.RawMessage, rerr *model.RPCError) {
	lk := l.link
	if rerr != nil {
		if rerr.Code == model.CodeUnknownSession {
			if l.durability == "ephemeral" {
				// The ephemeral host lost the session: no terminal will
				// ever come for what was open.
				if l.st.MarkTerminalUnknown() > 0 {
					l.dirty = true
				}
			}
			l.giveBackAll("the host does not know session " + l.sessionID)
			l.dropLink(&connError{Persistent: true, Reason: ReasonNoSession, Msg: "the host does not know session " + l.sessionID}, false)
			return
		}
		l.dropLink(&connError{Msg: "session/subscribe failed: " + rerr.Message}, false)
		return
	}
	var r subscribeResult
	if err := json.Unmarshal(res, &r); err != nil || r.Epoch == "" {
		l.dropLink(&connError{Persistent: true, Msg: "malformed session/subscribe result"}, false)
		return
	}
	_, headSeq, _ := model.ParseCursor(r.Head)
	lk.subscribed = true
	switch r.Delivery {
	case "snapshot":
		l.c.stats.snapshots.Add(1)
		if l.o.Replay {
			if !(l.authority && r.Epoch == l.st.Epoch) {
				l.replaceEmpty(r.Epoch)
			}
			l.startCatchUp()
			return
		}
		if r.Snapshot == nil {
			l.dropLink(&connError{Persistent: true, Msg: "snapshot delivery without a snapshot"}, false)
			return
		}
		old := l.st.Epoch
		_, err := l.st.LoadSnapshot(l.sessionID, r.Epoch, *r.Snapshot)
		if err != nil {
			l.addError(err.Error())
			l.dropLink(&connError{Persistent: true, Msg: "the host sent a snapshot this client cannot load: " + err.Error()}, false)
			return
		}
		l.takeDiagnostics()
		if old != "" && old != r.Epoch {
			l.log.Info("epoch changed; state replaced", "old", old, "new", r.Epoch)
		}
		l.gen++
		l.authority = true
		l.painted = false
		l.dirty = true
		l.cacheDirty()
		l.caughtUp()
	case "suffix":
		l.c.stats.suffixes.Add(1)
		if r.Epoch != l.st.Epoch {
			l.addError("suffix delivery from another epoch: resubscribing")
			l.authority = false
			l.dropLink(&connError{Msg: "suffix delivery from another epoch"}, true)
			return
		}
		if l.st.Cursor >= headSeq {
			l.caughtUp()
			return
		}
		l.startCatchUp()
	default:
		l.dropLink(&connError{Persistent: true, Msg: "unknown subscribe delivery " + strconv.Quote(r.Delivery)}, false)
	}
}

// replaceEmpty replaces the state by an empty one in epoch, keeping the
// pending family, to fold the epoch's history from its start.
func (l *loopState) replaceEmpty(epoch string) {
	zero := model.FormatCursor(l.sessionID, 0)
	_, _ = l.st.LoadSnapshot(l.sessionID, epoch, model.Snapshot{Cursor: zero, DurableCursor: zero})
	l.gen++
	l.authority = true
	l.painted = false
	l.dirty = true
}

// startCatchUp begins (or continues) paging forward from the durable
// cursor; live events wait in the buffer meanwhile.
func (l *loopState) startCatchUp() {
	lk := l.link
	lk.catchingUp = true
	lk.caughtUp = false
	l.dirty = true
	if lk.after != nil {
		return
	}
	l.requestAfter()
}

func (l *loopState) requestAfter() {
	lk := l.link
	seq := l.st.DurableCursor
	req := pageRequest{Epoch: l.st.Epoch, Cursor: model.FormatCursor(l.sessionID, seq), CursorSeq: seq, Gen: l.gen}
	lk.after = &req
	if lk.dog == nil {
		lk.dog = time.NewTimer(pageWatchdog)
	} else {
		lk.dog.Stop()
		lk.dog.Reset(pageWatchdog)
	}
	lk.dogC = lk.dog.C
	l.call("view/page", map[string]any{
		"sessionId": l.sessionID, "epoch": req.Epoch, "direction": "after",
		"cursor": req.Cursor, "limit": l.o.PageLimit,
	}, func(res json.RawMessage, rerr *model.RPCError) { l.onAfterPage(req, res, rerr) })
}

func (l *loopState) onAfterPage(req pageRequest, res json.RawMessage, rerr *model.RPCError) {
	lk := l.link
	lk.after = nil
	if lk.dog != nil {
		lk.dog.Stop()
		lk.dogC = nil
	}
	if rerr != nil {
		if rerr.Code == model.CodeStaleCursor {
			l.resync("the host no longer holds this cursor (-32020)")
			return
		}
		l.dropLink(&connError{Msg: "view/page after failed: " + rerr.Message}, false)
		return
	}
	r, err := model.DecodePage(res)
	if err != nil {
		l.dropLink(&connError{Persistent: true, Msg: "malformed view/page result: " + err.Error()}, false)
		return
	}
	switch acceptAfterPage(req, r.Epoch, l.st.Epoch, l.gen, l.st.DurableCursor) {
	case pageStale:
		if lk.catchingUp {
			l.requestAfter()
		}
		return
	case pageEpoch:
		l.resync("the host's epoch changed during catch-up")
		return
	}
	l.c.stats.afterPages.Add(1)
	for _, el := range r.Events {
		ev, err := el.Event()
		if err != nil {
			l.addError("page element: " + err.Error())
			if ev == nil {
				continue
			}
		}
		switch gateEvent(ev, l.st.Cursor, l.st.DurableCursor) {
		case drop:
		case apply:
			l.apply(ev)
		case gap:
			l.addError("view/page after is not contiguous at seq " + strconv.FormatInt(ev.Seq, 10))
			l.resync("a page did not continue the held range")
			return
		}
	}
	_, endSeq, _ := model.ParseCursor(r.EndCursor)
	if r.HasNewer {
		if len(r.Events) == 0 {
			l.dropLink(&connError{Persistent: true, Msg: "view/page says hasNewer but sent no events"}, false)
			return
		}
		l.requestAfter()
		return
	}
	// Caught up to the head: live events join from here. Apply what
	// waited meanwhile, then count the head itself as seen.
	lk.catchingUp = false
	buf := lk.buffer
	lk.buffer = nil
	for i, ev := range buf {
		if lk.catchingUp {
			lk.buffer = append(lk.buffer, buf[i:]...)
			return
		}
		l.gateLive(ev)
		if l.link != lk {
			return
		}
	}
	if lk.catchingUp {
		return
	}
	if endSeq > l.st.Cursor {
		l.st.Cursor = endSeq
		l.dirty = true
	}
	l.caughtUp()
}

// resync drops the held range's authority and reconnects at once: the
// next subscribe carries no cursor and its snapshot replaces the state.
func (l *loopState) resync(why string) {
	l.addError(why + ": resubscribing")
	l.authority = false
	l.dropLink(&connError{Msg: why}, true)
}

// caughtUp marks the link current: a user retry ends, and the pending
// family is reconciled once per connection. The backoff does not start
// over here: only once the link has stayed live healthyAfter (decideRetry
// reads liveAt when the link drops).
func (l *loopState) caughtUp() {
	lk := l.link
	lk.caughtUp = true
	lk.catchingUp = false
	if lk.liveAt.IsZero() {
		lk.liveAt = l.o.Now()
	}
	l.refusal, l.lastErr, l.userRetry = "", "", false
	l.refusalReason, l.lastReason = "", ""
	l.painted = false
	l.dirty = true
	l.cacheDirty()
	if !lk.reconciled {
		lk.reconciled = true
		l.reconcile()
	}
}

// ---- older history ------------------------------------------------------

func (l *loopState) loadOlder() {
	lk := l.link
	if l.older != nil || !l.st.HasOlder || lk == nil || !lk.subscribed {
		return
	}
	oldest := l.st.OldestPosition()
	if oldest <= 0 {
		return
	}
	req := pageRequest{Epoch: l.st.Epoch, Cursor: model.FormatCursor(l.sessionID, oldest), CursorSeq: oldest, Gen: l.gen}
	l.older = &req
	l.dirty = true
	l.call("view/page", map[string]any{
		"sessionId": l.sessionID, "epoch": req.Epoch, "direction": "before",
		"cursor": req.Cursor, "limit": l.o.OlderLimit,
	}, func(res json.RawMessage, rerr *model.RPCError) { l.onBeforePage(req, res, rerr) })
}

func (l *loopState) onBeforePage(req pageRequest, res json.RawMessage, rerr *model.RPCError) {
	if l.older != nil && *l.older == req {
		l.older = nil
	}
	l.dirty = true
	if rerr != nil {
		if rerr.Code == model.CodeStaleCursor {
			l.resync("history page refused as stale (-32020)")
			return
		}
		l.addError("view/page before failed: " + rerr.Message)
		return
	}
	r, err := model.DecodePage(res)
	if err != nil {
		l.addError("malformed view/page before result: " + err.Error())
		return
	}
	start := model.FormatCursor(l.sessionID, l.st.OldestPosition())
	switch acceptBeforePage(req, r.Epoch, l.st.Epoch, l.gen, start) {
	case pageStale:
		l.c.stats.staleBefore.Add(1)
		l.log.Debug("stale before page discarded", "asked", req.Cursor, "start", start)
		return
	case pageEpoch:
		l.resync("the host's epoch changed")
		return
	}
	evs := make([]*model.Event, 0, len(r.Events))
	for _, el := range r.Events {
		ev, err := el.Event()
		if err != nil {
			l.addError("history element: " + err.Error())
			continue
		}
		evs = append(evs, ev)
	}
	if err := l.st.ApplyOlder(evs, r.HasOlder); err != nil {
		l.addError(err.Error())
		return
	}
	l.takeDiagnostics()
	if l.o.OnEvent != nil {
		for _, ev := range evs {
			l.o.OnEvent(ev)
		}
	}
	l.cacheDirty()
}

// ---- user actions ---------------------------------------------------------

func (l *loopState) focus() {
	l.bo.Reset()
	if l.link == nil {
		if l.dialCh == nil {
			l.startDial()
		}
		return
	}
	lk := l.link
	if lk.probe != nil && lk.probeC != nil {
		return
	}
	if lk.probe == nil {
		lk.probe = time.NewTimer(probeTimeout)
	} else {
		lk.probe.Reset(probeTimeout)
	}
	lk.probeC = lk.probe.C
	l.call("session/list", struct{}{}, func(json.RawMessage, *model.RPCError) {
		// Any answer proves the socket alive.
		lk.probe.Stop()
		lk.probeC = nil
	})
}

// retryNow is the user's retry: the backoff resets and an attempt starts
// at once. Only a refusal (error) is retried as such (retrying, then live
// or error with the new failure); while merely reconnecting or updating it
// changes nothing but the timing, so the banner only gets more accurate.
func (l *loopState) retryNow() {
	l.bo.Reset()
	if l.link != nil && l.link.caughtUp {
		return
	}
	l.userRetry = l.refusal != ""
	l.dirty = true
	if l.link == nil && l.dialCh == nil {
		l.startDial()
	}
}

// ---- publishing ------------------------------------------------------------

func (l *loopState) addError(msg string) {
	l.log.Warn("sync", "error", msg)
	l.errors = append(l.errors, msg)
	l.errorCount++
	if len(l.errors) > maxErrors {
		l.errors = slices.Clone(l.errors[len(l.errors)-maxErrors:])
	}
	l.dirty = true
}

func (l *loopState) takeRetirements() {
	rs := l.st.TakeRetirements()
	if len(rs) == 0 {
		return
	}
	for i := range rs {
		l.launchDetail(&rs[i])
	}
	l.c.recordSettled(rs)
	for _, r := range rs {
		delete(l.cmds, r.CommandID)
		if r.Reason == model.RetiredRejected {
			l.addError("prompt rejected: " + r.Detail)
		}
		if GivesBack(r.Reason) {
			l.returned = append(l.returned, r)
		}
	}
	if n := len(l.returned) - maxReturned; n > 0 {
		l.returned = slices.Clone(l.returned[n:])
		l.returnedBase += uint64(n)
	}
	l.dirty = true
}

func (l *loopState) freshness() Freshness {
	in := freshInputs{
		Refusal:       l.refusal,
		UserRetry:     l.userRetry,
		Connected:     l.link != nil,
		CaughtUp:      l.link != nil && l.link.caughtUp,
		EverConnected: l.everConn,
		LastErr:       l.lastErr,
		Attempt:       l.bo.Attempt(),
	}
	if l.attemptC != nil {
		in.NextAttempt = l.nextAt
	}
	f := decideFreshness(in)
	switch f.State {
	case Error, Retrying:
		if f.Err != "" {
			f.Reason = l.refusalReason
		}
	case Reconnecting:
		f.Reason = l.lastReason
	}
	return f
}

func (l *loopState) publish() {
	l.dirty = false
	s := &Snapshot{
		View:           l.st.View(),
		Freshness:      l.freshness(),
		Returned:       slices.Clip(l.returned),
		ReturnedBase:   l.returnedBase,
		Errors:         slices.Clip(l.errors),
		ErrorCount:     l.errorCount,
		Durability:     l.durability,
		HistoryLoading: l.older != nil,
		SessionID:      l.sessionID,
		CachePainted:   l.painted,
	}
	l.c.cur.Store(s)
	select {
	case l.c.updates <- struct{}{}:
	default:
	}
}
