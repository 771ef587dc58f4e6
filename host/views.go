package host

import (
	"encoding/json"
	"sort"

	"github.com/lookout-sh/lookout/model"
)

// subscribe registers c on the session and answers session/subscribe: the
// response, then the suffix (if any), then live events, with no gap and no
// duplicate between them (all three are queued under the session lock).
func (s *session) subscribe(c *conn, reqID json.RawMessage, cursor *string, epoch *string, limit int) *rpcError {
	var cseq int64 = -1
	if cursor != nil && *cursor != "" {
		sid, seq, ok := model.ParseCursor(*cursor)
		if !ok {
			return errInvalidParams("invalid params: malformed cursor " + *cursor)
		}
		if sid == s.id {
			cseq = seq
		}
	}
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retired.Load() { // taken over since this request found it
		c.closeAfterFlush(closeServiceRestart, resumeReason)
		return nil
	}
	if err := s.flushLocked(); err != nil {
		return errJournalUnavailable(err)
	}
	if err := s.refreshLocked(); err != nil {
		return errJournalRead(err)
	}
	head := s.headLocked()
	result := map[string]any{"epoch": s.epoch, "head": model.FormatCursor(s.id, head)}

	var suffix []journalEvent
	useSuffix := false
	if cseq >= 0 && epoch != nil && *epoch == s.epoch && cseq <= head {
		maxSuffix := min(limit, c.limit/2)
		newer := len(s.durables) - sort.Search(len(s.durables), func(i int) bool { return s.durables[i] > cseq })
		if newer <= maxSuffix && !s.missedDeltasLocked(cseq) {
			evs, more, err := s.h.j.readAfter(s.id, cseq, s.sentDurable, maxSuffix, 1<<62)
			if err == nil && !more && len(evs) == newer {
				suffix, useSuffix = evs, true
			} else if err != nil {
				s.h.log.Error("journal read failed; serving a snapshot", "session", s.id, "err", err)
			}
		}
	}
	if useSuffix {
		result["delivery"] = "suffix"
	} else {
		snap, err := s.snapshotLocked(limit)
		if err != nil {
			return errJournalRead(err)
		}
		result["delivery"] = "snapshot"
		result["snapshot"] = snap
		c.clearShed(s.id) // the snapshot restates every item
	}
	c.enqueue(outMsg{data: responseFrame(reqID, result, nil), kind: kindResponse})
	now := nowMs()
	for _, e := range suffix {
		ev, _ := model.DecodeNotification(e.Method, e.Params)
		c.enqueue(s.outMsgFor(e.Method, e.Params, ev, now))
	}
	s.subs[c] = struct{}{}
	c.addSub(s)
	return nil
}

// missedDeltasLocked reports whether a client at cursor would miss streamed
// text: some still-open item received deltas after both the cursor and its
// latest full-object event. Suffix delivery replays durable events only.
func (s *session) missedDeltasLocked(cursor int64) bool {
	for id := range s.open {
		if d := s.lastDelta[id]; d > cursor && d > s.fullSeq[id] {
			return true
		}
	}
	return false
}

// pageAfter answers view/page direction "after": durable events above
// cursor, oldest first.
func (s *session) pageAfter(cseq int64, limit int) (*model.Page, *rpcError) {
	if s.replica {
		s.fmu.Lock()
		s.mu.Lock()
		err := s.refreshLocked()
		s.mu.Unlock()
		s.fmu.Unlock()
		if err != nil {
			return nil, errJournalRead(err)
		}
	}
	s.mu.Lock()
	head, lastDurable := s.headLocked(), s.sentDurable
	hasOlder := len(s.durables) > 0 && s.durables[0] <= cseq
	s.mu.Unlock()
	if cseq > head {
		return nil, errStale(s.epoch, "stale cursor: it is ahead of this epoch's head")
	}
	evs, more, err := s.h.j.readAfter(s.id, cseq, lastDurable, limit, PageBytes)
	if err != nil {
		return nil, errJournalRead(err)
	}
	r := &model.Page{Epoch: s.epoch, Events: make([]model.PageElement, len(evs)), HasNewer: more, HasOlder: hasOlder,
		StartCursor: model.FormatCursor(s.id, cseq), EndCursor: model.FormatCursor(s.id, head)}
	for i, e := range evs {
		r.Events[i] = model.PageElement{Method: e.Method, Params: e.Params}
	}
	if len(evs) > 0 {
		r.StartCursor = model.FormatCursor(s.id, evs[0].Seq)
		if more {
			r.EndCursor = model.FormatCursor(s.id, evs[len(evs)-1].Seq)
		}
	}
	return r, nil
}

// pageBefore answers view/page direction "before": for up to limit items
// positioned below pos, each item's latest full-object event, in position
// order. pos < 0 means "below everything".
func (s *session) pageBefore(pos int64, limit int) (*model.Page, *rpcError) {
	s.fmu.Lock()
	s.mu.Lock()
	if err := s.flushLocked(); err != nil {
		s.mu.Unlock()
		s.fmu.Unlock()
		return nil, errJournalUnavailable(err)
	}
	if err := s.refreshLocked(); err != nil {
		s.mu.Unlock()
		s.fmu.Unlock()
		return nil, errJournalRead(err)
	}
	head := s.headLocked()
	if pos > head+1 {
		s.mu.Unlock()
		s.fmu.Unlock()
		return nil, errStale(s.epoch, "stale cursor: it is ahead of this epoch's head")
	}
	end := len(s.positions)
	if pos >= 0 {
		end = sort.Search(len(s.positions), func(i int) bool { return s.positions[i].pos >= pos })
	}
	start := max(0, end-limit)
	entries := append([]posEntry(nil), s.positions[start:end]...)
	seqs := make([]int64, len(entries))
	for i, e := range entries {
		seqs[i] = s.fullSeq[e.id]
	}
	hasNewer := end < len(s.positions)
	s.mu.Unlock()
	s.fmu.Unlock()

	evs, err := s.h.j.readSeqs(s.id, seqs)
	if err != nil {
		return nil, errJournalRead(err)
	}
	bySeq := make(map[int64]journalEvent, len(evs))
	for _, e := range evs {
		bySeq[e.Seq] = e
	}
	// Keep the newest items that fit the byte bound (at least one).
	first, size := len(entries), 0
	for i := len(entries) - 1; i >= 0; i-- {
		size += len(bySeq[seqs[i]].Params)
		if size > PageBytes && i < len(entries)-1 {
			break
		}
		first = i
	}
	r := &model.Page{Epoch: s.epoch, Events: make([]model.PageElement, 0, len(entries)-first),
		HasOlder: start > 0 || first > 0, HasNewer: hasNewer}
	for i := first; i < len(entries); i++ {
		e, ok := bySeq[seqs[i]]
		if !ok {
			continue
		}
		r.Events = append(r.Events, model.PageElement{Method: e.Method, Params: e.Params})
	}
	endPos := pos
	if pos < 0 {
		endPos = head + 1
	}
	r.EndCursor = model.FormatCursor(s.id, endPos)
	r.StartCursor = r.EndCursor
	if first < len(entries) {
		r.StartCursor = model.FormatCursor(s.id, entries[first].pos)
	}
	return r, nil
}
