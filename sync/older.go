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
	var r model.Page
	if err := json.Unmarshal(res, &r); err != nil {
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
		ev, err := model.DecodeNotification(el.Method, el.Params)
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
