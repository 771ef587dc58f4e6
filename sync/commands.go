package sync

import (
	"encoding/json"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// ready reports whether commands may be sent now: connected, subscribed,
// and the pending family reconciled on this connection.
func (l *loopState) ready() bool {
	return l.link != nil && l.link.phase.subscribed() && l.link.reconciled()
}

func (l *loopState) submit(commandID, text, agentCmd string) {
	l.st.Submit(commandID, text, l.clock.Now().UnixMilli())
	if agentCmd != "" {
		l.agentCmds[commandID] = agentCmd
	}
	l.dirty = true
	if l.sessionGone() {
		l.st.Retire(commandID, model.RetiredGaveUp, "not sent: "+l.refusal)
		return
	}
	l.cmds[commandID] = &cmdState{}
	if l.ready() {
		l.sendSubmit(commandID)
	}
	// Otherwise the reconciliation of the next connection sends it.
}

// sendSubmit sends turn/submit for a pending entry, with its commandId.
func (l *loopState) sendSubmit(cid string) {
	p, ok := l.st.PendingEntry(cid)
	if !ok {
		delete(l.cmds, cid)
		return
	}
	cs := l.cmds[cid]
	if cs == nil {
		cs = &cmdState{}
		l.cmds[cid] = cs
	}
	if cs.inflight {
		return
	}
	cs.attempts++
	cs.inflight = true
	cs.linkID = l.link.id
	cs.retryAt = time.Time{}
	l.c.stats.submits.Add(1)
	params := map[string]string{"sessionId": l.sessionID, "commandId": cid, "text": p.Text}
	if name := l.agentCmds[cid]; name != "" {
		params["agentCommand"] = name
	}
	l.call("turn/submit", params,
		func(res json.RawMessage, rerr *model.RPCError) { l.onSubmitted(cid, cs, res, rerr) })
}

func (l *loopState) onSubmitted(cid string, cs *cmdState, res json.RawMessage, rerr *model.RPCError) {
	cs.inflight = false
	l.dirty = true
	o := decideSubmit(res, rerr)
	switch o.verdict {
	case submitAcked:
		l.noteLaunch(cid, o.turnID) // the turn may have failed before the answer
		l.st.Ack(cid, o.status, o.turnID)
	case submitRejected:
		l.st.Retire(cid, model.RetiredRejected, o.why)
	case submitSessionGone:
		l.addError("turn/submit: " + o.why)
		l.st.Retire(cid, model.RetiredGaveUp, "the host does not know session "+l.sessionID)
	default:
		if o.malformed {
			l.addError(o.why)
		}
		l.scheduleSubmitRetry(cid, cs, o.why)
	}
}

// scheduleSubmitRetry keeps an entry that admitted nothing pending and
// retries it after a backoff, or gives up (text back to the composer)
// after MaxSubmitAttempts sends.
func (l *loopState) scheduleSubmitRetry(cid string, cs *cmdState, why string) {
	if cs.attempts >= l.o.MaxSubmitAttempts {
		l.st.Retire(cid, model.RetiredGaveUp, "gave up after "+itoa(cs.attempts)+" attempts: "+why)
		return
	}
	l.st.SetPendingStatus(cid, model.PendingRetrying)
	cs.retryAt = l.clock.Now().Add(l.scaled(backoffDelay(cs.attempts - 1)))
	l.armRetry()
}

// armRetry points the retry timer at the earliest due submission retry.
func (l *loopState) armRetry() {
	var next time.Time
	for _, cs := range l.cmds {
		if !cs.retryAt.IsZero() && (next.IsZero() || cs.retryAt.Before(next)) {
			next = cs.retryAt
		}
	}
	if next.IsZero() {
		l.retry.stop()
		return
	}
	l.retry.arm(l.clock, max(next.Sub(l.clock.Now()), 0))
}

func (l *loopState) retryDue() {
	now := l.clock.Now()
	for cid, cs := range l.cmds {
		if cs.retryAt.IsZero() || cs.retryAt.After(now) || cs.inflight {
			continue
		}
		if l.ready() {
			l.sendSubmit(cid)
		} else {
			// Offline: the next connection's reconciliation resubmits it.
			cs.retryAt = time.Time{}
		}
	}
	l.armRetry()
}

// reconcile resolves the pending family on a new connection
// (docs/protocol.md §7, "On reconnect"):
// every acked entry is replayed once (this covers the acked entries a
// snapshot no longer lists); every unacked entry is resubmitted once with
// its commandId; approval answers still owed are sent (answers.go).
func (l *loopState) reconcile() {
	l.reconcileAnswers()
	l.reconcileQuestionAnswers()
	l.reconcileSteers()
	for _, p := range l.st.Pending() {
		if p.Acked {
			l.sendReplay(p.CommandID)
		} else {
			l.sendSubmit(p.CommandID)
		}
	}
}

func (l *loopState) sendReplay(cid string) {
	l.c.stats.replays.Add(1)
	l.call("command/replay", map[string]string{"sessionId": l.sessionID, "commandId": cid},
		func(res json.RawMessage, rerr *model.RPCError) {
			l.dirty = true
			if rerr != nil {
				l.addError("command/replay: " + rerr.Message)
				return
			}
			var a replayAnswer
			if err := json.Unmarshal(res, &a); err != nil {
				l.addError("malformed command/replay result: " + err.Error())
				return
			}
			p, ok := l.st.PendingEntry(cid)
			if !ok {
				return // settled by the fold meanwhile
			}
			act := reconcileReplay(a, p.Acked)
			if act.Detail != "" && act.Keep {
				l.addError("command/replay: " + act.Detail)
			}
			switch {
			case !act.Keep:
				detail := act.Detail
				if act.Retire == model.RetiredJoined {
					detail = act.ItemID
				}
				if act.Retire == model.RetiredLaunchFailed {
					l.noteLaunch(cid, p.TurnID)
				}
				l.st.Retire(cid, act.Retire, detail)
			case act.Resubmit:
				l.sendSubmit(cid)
			case act.AckStatus != "":
				l.st.Ack(cid, act.AckStatus, act.TurnID)
			}
		})
}

// replayFor answers Client.ReplayCommand: one command/replay on the
// current connection, once it is reconciled. The answer goes to ch (the
// first of the answer, an error, or the connection's end).
func (l *loopState) replayFor(cid string, ch chan<- replayReply) {
	reply := func(r replayReply) {
		select {
		case ch <- r:
		default:
		}
	}
	if !l.ready() {
		reply(replayReply{err: ErrNotConnected})
		return
	}
	lk := l.link
	lk.onDrop = append(lk.onDrop, func() { reply(replayReply{err: ErrNotConnected}) })
	l.c.stats.replays.Add(1)
	l.call("command/replay", map[string]string{"sessionId": l.sessionID, "commandId": cid},
		func(res json.RawMessage, rerr *model.RPCError) {
			if rerr != nil {
				reply(replayReply{err: &RequestError{Method: "command/replay", Code: rerr.Code, Message: rerr.Message}})
				return
			}
			var a replayAnswer
			if err := json.Unmarshal(res, &a); err != nil {
				reply(replayReply{err: &RequestError{Method: "command/replay", Message: "malformed result: " + err.Error()}})
				return
			}
			reply(replayReply{st: a.status()})
		})
}

func (l *loopState) unqueue(cid string) {
	if !l.ready() {
		l.addError("not connected: unqueue not sent")
		return
	}
	l.call("turn/unqueue", map[string]string{"sessionId": l.sessionID, "commandId": cid}, l.reportErr("turn/unqueue"))
}

func (l *loopState) interrupt() {
	a := l.st.ActiveTurn()
	if a == nil {
		l.addError("no active turn to interrupt")
		return
	}
	if !l.ready() {
		l.addError("not connected: interrupt not sent")
		return
	}
	l.call("turn/interrupt", map[string]string{"sessionId": l.sessionID, "turnId": a.TurnID}, l.reportErr("turn/interrupt"))
}

// reportErr is a callback that records an error answer.
func (l *loopState) reportErr(method string) callback {
	return func(_ json.RawMessage, rerr *model.RPCError) {
		if rerr != nil {
			l.addError(method + ": " + rerr.Message)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
