package sync

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// Older history: `before` pages, asked for by the user (LoadOlder), that
// extend the held range backwards by item position (docs/protocol.md §6).

func (l *loopState) loadOlder() {
	lk := l.link
	if l.older != nil || !l.st.HasOlder || lk == nil || !lk.phase.subscribed() {
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

// onBeforePage carries out planBeforePage.
func (l *loopState) onBeforePage(req pageRequest, res json.RawMessage, rerr *model.RPCError) {
	if l.older != nil && *l.older == req {
		l.older = nil
	}
	l.dirty = true
	start := model.FormatCursor(l.sessionID, l.st.OldestPosition())
	p := planBeforePage(req, res, rerr, l.held(), start)
	switch p.Next {
	case beforeResync:
		l.resync(p.Why)
		return
	case beforeFailed:
		l.addError(p.Why)
		return
	case beforeStale:
		l.c.stats.staleBefore.Add(1)
		l.log.Debug("stale before page discarded", "asked", req.Cursor, "start", start)
		return
	}
	for _, note := range p.Notes {
		l.addError(note)
	}
	if err := l.st.ApplyOlder(p.Events, p.HasOlder); err != nil {
		l.addError(err.Error())
		return
	}
	l.takeDiagnostics()
	if l.o.OnEvent != nil {
		for _, ev := range p.Events {
			l.o.OnEvent(ev)
		}
	}
	if w := l.startWin(); w != nil && (!l.st.HasOlder || l.st.OldestPosition() <= w.end) {
		l.joinStart(w) // paging back met the start window
	}
	l.cacheDirty()
}
