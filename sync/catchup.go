package sync

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// Catch-up: session/subscribe, then `after` pages forward from the durable
// cursor while live events wait in the buffer, then the buffer drains
// through the gate and the link is live (docs/protocol.md §5, §6). What
// cannot continue the held range resyncs: the next subscribe carries no
// cursor and its snapshot replaces the state.

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

// onSubscribed carries out planSubscribe.
func (l *loopState) onSubscribed(res json.RawMessage, rerr *model.RPCError) {
	p := planSubscribe(res, rerr, l.held(), l.durability, l.o.Replay)
	switch p.Delivery {
	case "snapshot":
		l.c.stats.snapshots.Add(1)
	case "suffix":
		l.c.stats.suffixes.Add(1)
	}
	switch p.Next {
	case subscribeMissing:
		if p.MarkTerminalUnknown && l.st.MarkTerminalUnknown() > 0 {
			l.dirty = true
		}
		l.sessionMissing(p.Why)
	case subscribeDrop:
		l.dropLink(&linkError{Persistent: p.Persistent, Msg: p.Why})
	case subscribeResync:
		l.resync(p.Why)
	case subscribeLoad:
		l.loadSnapshot(p.Epoch, *p.Snapshot)
	case subscribeCatchUp:
		if p.ReplaceEmpty {
			l.replaceEmpty(p.Epoch)
		}
		l.startCatchUp()
	case subscribeLive:
		l.caughtUp()
	}
}

// loadSnapshot replaces the state by a subscribe answer's snapshot: a
// completed catch-up. One the fold cannot load is a refusal.
func (l *loopState) loadSnapshot(epoch string, snap model.Snapshot) {
	old := l.st.Epoch
	if _, err := l.st.LoadSnapshot(l.sessionID, epoch, snap); err != nil {
		l.addError(err.Error())
		l.refuse("the host sent a snapshot this client cannot load: " + err.Error())
		return
	}
	l.takeDiagnostics()
	if old != "" && old != epoch {
		l.log.Info("epoch changed; state replaced", "old", old, "new", epoch)
	}
	l.gen++
	l.authority = true
	l.painted = false
	l.dirty = true
	l.cacheDirty()
	l.caughtUp()
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
	lk.phase = linkCatchingUp
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
	lk.watchdog.arm(l.clock, pageWatchdog)
	l.call("view/page", map[string]any{
		"sessionId": l.sessionID, "epoch": req.Epoch, "direction": "after",
		"cursor": req.Cursor, "limit": l.o.PageLimit,
	}, func(res json.RawMessage, rerr *model.RPCError) { l.onAfterPage(req, res, rerr) })
}

// onAfterPage carries out planAfterPage.
func (l *loopState) onAfterPage(req pageRequest, res json.RawMessage, rerr *model.RPCError) {
	lk := l.link
	lk.after = nil
	lk.watchdog.stop()
	p := planAfterPage(req, res, rerr, l.held(), lk.phase == linkCatchingUp)
	if p.Accepted {
		l.c.stats.afterPages.Add(1)
	}
	for _, step := range p.Steps {
		if step.Note != "" {
			l.addError(step.Note)
		}
		if step.Fold != nil {
			l.apply(step.Fold)
		}
	}
	switch p.Next {
	case afterAgain:
		l.requestAfter()
	case afterDrain:
		l.drain(p.HeadSeq)
	case afterResync:
		l.resync(p.Why)
	case afterDrop:
		l.dropLink(&linkError{Persistent: p.Persistent, Msg: p.Why})
	case afterNothing:
	}
}

// drain ends a catch-up that reached the head (headSeq): live events join
// from here. What waited meanwhile passes the gate (a gap among it starts
// the next catch-up), then the head itself counts as seen.
func (l *loopState) drain(headSeq int64) {
	lk := l.link
	lk.phase = linkDraining
	buf := lk.buffer
	lk.buffer = nil
	for i, ev := range buf {
		if lk.phase == linkCatchingUp {
			lk.buffer = append(lk.buffer, buf[i:]...)
			return
		}
		l.gateLive(ev)
		if l.link != lk {
			return
		}
	}
	if lk.phase == linkCatchingUp {
		return
	}
	if headSeq > l.st.Cursor {
		l.st.Cursor = headSeq
		l.dirty = true
	}
	l.caughtUp()
}

// resync drops the held range's authority and reconnects at once: the
// next subscribe carries no cursor and its snapshot replaces the state.
func (l *loopState) resync(why string) {
	l.addError(why + ": resubscribing")
	l.authority = false
	l.redial(&linkError{Msg: why})
}

// caughtUp marks the link current: a user retry ends, and the pending
// family is reconciled once per link. The backoff does not start over
// here: only once the link has stayed live healthyAfter (decideRetry
// reads liveAt when the link drops).
func (l *loopState) caughtUp() {
	lk := l.link
	lk.phase = linkLive
	first := !lk.reconciled()
	if first {
		lk.liveAt = l.clock.Now()
	}
	l.refusal, l.lastErr, l.userRetry = "", "", false
	l.refusalReason, l.lastReason = "", ""
	l.painted = false
	l.dirty = true
	l.cacheDirty()
	if first {
		l.reconcile()
		if l.looking {
			l.tellLooking() // a new link: the host knows nothing of it yet
		}
	}
}
