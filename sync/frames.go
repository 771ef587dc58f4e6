package sync

import (
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

// Frames in: responses go to the call that asked, notifications of the
// followed session through the live gate (or into the catch-up buffer).

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
	if lk == nil || !lk.phase.subscribed() || ev.SessionID != l.sessionID {
		// Not (yet) ours: nothing to fold. Notifications follow the
		// subscribe answer, so this is another session's stream.
		return
	}
	if lk.phase == linkCatchingUp {
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
	if ev.Item != nil {
		l.startLive(ev)
	}
	if l.o.OnEvent != nil {
		if ev, ok := keptOf(ev, l.st); ok {
			l.o.OnEvent(ev)
		}
	}
	if ev.Durable {
		l.cacheDirty()
	}
}

// keptOf is ev as the fold kept it, for OnEvent: a delta whose text the
// fold cut is passed on cut the same way and marked (Event.Cut), the
// rest of a stream already cut not at all; every other event as it is.
func keptOf(ev *model.Event, st *model.State) (*model.Event, bool) {
	if ev.Method != model.MethodItemDelta {
		return ev, true
	}
	kept, cut := st.DeltaKept(), st.DeltaCut()
	switch {
	case cut == nil && kept >= len(ev.Delta):
		return ev, true
	case cut == nil && kept == 0:
		return nil, false
	}
	c := *ev
	c.Delta, c.Cut = ev.Delta[:kept], cut
	return &c, true
}
