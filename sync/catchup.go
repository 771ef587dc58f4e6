package sync

import (
	"encoding/json"
	"strconv"

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

func (l *loopState) onSubscribed(res json.RawMessage, rerr *model.RPCError) {
	if rerr != nil {
		if rerr.Code == model.CodeUnknownSession {
			if l.durability == "ephemeral" {
				// The ephemeral host lost the session: no terminal will
				// ever come for what was open.
				if l.st.MarkTerminalUnknown() > 0 {
					l.dirty = true
				}
			}
			l.sessionMissing("the host does not know session " + l.sessionID)
			return
		}
		l.dropLink(&connError{Msg: "session/subscribe failed: " + rerr.Message})
		return
	}
	var r subscribeResult
	if err := json.Unmarshal(res, &r); err != nil || r.Epoch == "" {
		l.refuse("malformed session/subscribe result")
		return
	}
	_, headSeq, _ := model.ParseCursor(r.Head)
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
			l.refuse("snapshot delivery without a snapshot")
			return
		}
		old := l.st.Epoch
		_, err := l.st.LoadSnapshot(l.sessionID, r.Epoch, *r.Snapshot)
		if err != nil {
			l.addError(err.Error())
			l.refuse("the host sent a snapshot this client cannot load: " + err.Error())
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
			l.resync("suffix delivery from another epoch")
			return
		}
		if l.st.Cursor >= headSeq {
			l.caughtUp()
			return
		}
		l.startCatchUp()
	default:
		l.refuse("unknown subscribe delivery " + strconv.Quote(r.Delivery))
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
	lk.watchdog.arm(pageWatchdog)
	l.call("view/page", map[string]any{
		"sessionId": l.sessionID, "epoch": req.Epoch, "direction": "after",
		"cursor": req.Cursor, "limit": l.o.PageLimit,
	}, func(res json.RawMessage, rerr *model.RPCError) { l.onAfterPage(req, res, rerr) })
}

func (l *loopState) onAfterPage(req pageRequest, res json.RawMessage, rerr *model.RPCError) {
	lk := l.link
	lk.after = nil
	lk.watchdog.stop()
	if rerr != nil {
		if rerr.Code == model.CodeStaleCursor {
			l.resync("the host no longer holds this cursor (-32020)")
			return
		}
		l.dropLink(&connError{Msg: "view/page after failed: " + rerr.Message})
		return
	}
	var r model.Page
	if err := json.Unmarshal(res, &r); err != nil {
		l.refuse("malformed view/page result: " + err.Error())
		return
	}
	switch acceptAfterPage(req, r.Epoch, l.st.Epoch, l.gen, l.st.DurableCursor) {
	case pageStale:
		if lk.phase == linkCatchingUp {
			l.requestAfter()
		}
		return
	case pageEpoch:
		l.resync("the host's epoch changed during catch-up")
		return
	}
	l.c.stats.afterPages.Add(1)
	for _, el := range r.Events {
		ev, err := model.DecodeNotification(el.Method, el.Params)
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
			l.refuse("view/page says hasNewer but sent no events")
			return
		}
		l.requestAfter()
		return
	}
	l.drain(endSeq)
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
	l.redial(&connError{Msg: why})
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
		lk.liveAt = l.o.Now()
	}
	l.refusal, l.lastErr, l.userRetry = "", "", false
	l.refusalReason, l.lastReason = "", ""
	l.painted = false
	l.dirty = true
	l.cacheDirty()
	if first {
		l.reconcile()
	}
}
