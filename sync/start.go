package sync

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// startWindow is the session's first items while a hole separates them
// from the held range (startplan.go): its own fold, and the events it was
// made of, to join the held range once the hole is filled.
type startWindow struct {
	gen    uint64       // the replacement generation it belongs to
	st     *model.State // every item positioned below end, and no other
	events []*model.Event
	end    int64
	span   int64         // the next page's span
	asking *startRequest // the page in flight
}

// startWin is the start window of the current generation, if any.
func (l *loopState) startWin() *startWindow {
	if l.start != nil && l.start.gen != l.gen {
		l.start = nil // the state was replaced: the window is of the past
	}
	return l.start
}

// loadStart makes a start window and asks for its first page, unless the
// held range already starts at the session's start. With a window made
// already it asks for the window's next page if none is in flight (its
// first, if the link ended before it came).
func (l *loopState) loadStart() {
	if l.startWin() != nil {
		l.loadForward()
		return
	}
	if !l.st.HasOlder || l.link == nil || !l.link.phase.subscribed() {
		return
	}
	l.start = &startWindow{gen: l.gen, st: l.newState(l.sessionID), end: 1, span: int64(l.o.OlderLimit)}
	l.dirty = true
	l.askStart()
}

// loadForward asks for the next page below the start window, if there is
// a window and no page of it in flight.
func (l *loopState) loadForward() {
	if w := l.startWin(); w != nil && w.asking == nil {
		l.askStart()
	}
}

func (l *loopState) askStart() {
	w := l.start
	if l.link == nil || !l.link.phase.subscribed() {
		return
	}
	span := max(w.span, minStartSpan)
	req := startRequest{Epoch: l.st.Epoch, Gen: l.gen, End: w.end, Span: span, Cursor: startCursor(w.end, span, l.st.Cursor)}
	if req.Cursor <= w.end {
		l.joinStart(w) // the window holds every item up to the cursor
		return
	}
	w.asking = &req
	l.dirty = true
	l.call("view/page", map[string]any{
		"sessionId": l.sessionID, "epoch": req.Epoch, "direction": "before",
		"cursor": model.FormatCursor(l.sessionID, req.Cursor), "limit": req.Span,
	}, func(res json.RawMessage, rerr *model.RPCError) { l.onStartPage(req, res, rerr) })
}

// onStartPage carries out planStartPage.
func (l *loopState) onStartPage(req startRequest, res json.RawMessage, rerr *model.RPCError) {
	w := l.startWin()
	if w == nil || w.asking == nil || *w.asking != req {
		return
	}
	w.asking = nil
	l.dirty = true
	p := planStartPage(req, res, rerr, l.held(), l.st.OldestPosition())
	switch p.Next {
	case startStale:
		l.start = nil
		return
	case startResync:
		l.resync(p.Why)
		return
	case startFailed:
		l.addError(p.Why)
		return
	case startNarrow:
		l.c.stats.startCuts.Add(1)
		w.span = p.Span
		l.askStart()
		return
	}
	for _, note := range p.Notes {
		l.addError(note)
	}
	if err := w.st.ApplyOlder(p.Events, false); err != nil {
		l.addError(err.Error())
		return
	}
	w.events = append(w.events, p.Events...)
	w.end = p.End
	l.c.stats.startPages.Add(1)
	l.takeStartDiagnostics(w)
	if l.o.OnEvent != nil {
		for _, ev := range p.Events {
			l.o.OnEvent(ev)
		}
	}
	if p.Join {
		l.joinStart(w)
	}
}

// joinStart folds the window into the held range, which then reaches the
// session's start.
func (l *loopState) joinStart(w *startWindow) {
	l.start = nil
	if err := l.st.ApplyOlder(w.events, false); err != nil {
		l.addError(err.Error())
		return
	}
	l.takeDiagnostics()
	l.cacheDirty()
}

// startLive keeps a start window's item current when a live full object
// for it folds (the held range leaves such an item out: it is older than
// its oldest, docs/protocol.md §3 rule 7).
func (l *loopState) startLive(ev *model.Event) {
	w := l.startWin()
	if w == nil || ev.Item == nil || ev.Item.Position >= w.end {
		return
	}
	if w.st.ApplyOlder([]*model.Event{ev}, false) == nil {
		w.events = append(w.events, ev)
		l.takeStartDiagnostics(w)
	}
}

func (l *loopState) takeStartDiagnostics(w *startWindow) {
	for _, d := range w.st.TakeDiagnostics() {
		l.addError(d.Error())
	}
}
