package sync

import (
	"slices"

	"github.com/lookout-sh/lookout/model"
)

// Publishing: the errors, returned texts and freshness the loop gathers,
// and the immutable Picture it publishes after each batch of work.

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
		delete(l.agentCmds, r.CommandID)
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
		RefusalReason: l.refusalReason,
		UserRetry:     l.userRetry,
		Connected:     l.link != nil,
		CaughtUp:      l.link != nil && l.link.phase == linkLive,
		EverConnected: l.everConn,
		LastErr:       l.lastErr,
		LastReason:    l.lastReason,
		Attempt:       l.bo.Attempt(),
	}
	if l.attempt.armed() {
		in.NextAttempt = l.nextAt
	}
	return decideFreshness(in)
}

func (l *loopState) publish() {
	l.dirty = false
	var start *model.View
	var startLoading bool
	if w := l.startWin(); w != nil {
		start, startLoading = w.st.View(), w.asking != nil
	}
	s := &Picture{
		Start:          start,
		StartLoading:   startLoading,
		View:           l.st.View(),
		Freshness:      l.freshness(),
		Returned:       slices.Clip(l.returned),
		ReturnedBase:   l.returnedBase,
		Errors:         slices.Clip(l.errors),
		ErrorCount:     l.errorCount,
		Durability:     l.durability,
		AgentCommands:  l.agentCommands,
		Steer:          l.steer,
		HistoryLoading: l.older != nil,
		SessionID:      l.sessionID,
		CachePainted:   l.painted,
		Answers:        l.answerList(),
		HostURL:        l.c.URL(),
	}
	l.c.cur.Store(s)
	select {
	case l.c.updates <- struct{}{}:
	default:
	}
}
