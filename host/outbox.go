package host

import (
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// emitLocked emits one event into the session: it assigns the next seq,
// folds the event into the session's state (which the next event builds
// on) and puts it in the outbox. A flush, right away on another goroutine,
// journals the outbox's durable events in one commit and only then sends
// the outbox to subscribers, in order: durable events are journaled before
// they are sent, and a fast agent's events share commits. fields are the
// params beyond sessionId, viewCursor and prevCursor.
func (s *session) emitLocked(method string, fields map[string]any) (int64, error) {
	if s.deposed {
		return 0, errDeposed
	}
	durable, _ := model.IsDurable(method)
	seq := s.seq + 1
	params, err := s.buildParams(seq, durable, fields)
	if err != nil {
		return 0, err
	}
	ev, err := model.DecodeNotification(method, params)
	if err != nil {
		return 0, s.refuseLocked(method, err)
	}
	return seq, s.emitEventLocked(ev)
}

// emitDeltaLocked is emitLocked for an item/delta, the event an agent
// streams thousands of a second: built as the Event and its params at
// once, with no round trip through JSON.
func (s *session) emitDeltaLocked(itemID, field, text string) (int64, error) {
	if s.deposed {
		return 0, errDeposed
	}
	ev := &model.Event{Method: model.MethodItemDelta, SessionID: s.id, Seq: s.seq + 1, ItemID: itemID, Field: field, Delta: text, QueuePos: -1}
	ev.Params = deltaParams(ev)
	return ev.Seq, s.emitEventLocked(ev)
}

// emitEventLocked folds ev, the session's next event, and puts it in the
// outbox; a fold that refuses it emits nothing.
func (s *session) emitEventLocked(ev *model.Event) error {
	if err := s.state.Apply(ev); err != nil {
		return s.refuseLocked(ev.Method, err)
	}
	s.seq = ev.Seq
	s.updatedAt = time.Now()
	s.indexLocked(ev)
	if isFullObject(ev.Method) {
		s.maybeCompactLocked()
	}
	s.outbox = append(s.outbox, pendingEvent{je: journalEvent{Seq: ev.Seq, Method: ev.Method, Params: ev.Params}, durable: ev.Durable, ev: ev})
	s.scheduleFlushLocked(ev.Method == model.MethodItemDelta)
	return nil
}

// scheduleFlushLocked makes sure a background flush will take the outbox:
// at once for any event but a delta, after deltaFlushDelay for a delta
// (deltaflush.go). An event that is not a delta hurries a waiting flush.
func (s *session) scheduleFlushLocked(delta bool) {
	switch {
	case !s.flushScheduled:
		s.flushScheduled = true
		s.h.flushes.Add(1)
		if delta {
			s.deltaFlush.start(s.flushAsync)
			return
		}
		go s.flushAsync()
	case !delta && s.deltaFlush.hurry():
		go s.flushAsync()
	}
}

// refuseLocked is the error of an event the host's own fold refuses (an
// agent asked for something the protocol does not allow): nothing is
// emitted, and the fold is unchanged.
func (s *session) refuseLocked(method string, err error) error {
	s.h.log.Error("refusing an event the fold refuses", "session", s.id, "method", method, "err", err)
	return fmt.Errorf("event refused by the fold: %w", err)
}

// pendingEvent is an emitted event waiting for its commit.
type pendingEvent struct {
	je      journalEvent
	durable bool
	ev      *model.Event
}

// flushAsync is the background flush scheduled by emitLocked.
func (s *session) flushAsync() {
	defer s.h.flushes.Done()
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.mu.Lock()
	s.flushScheduled = false
	s.deltaFlush.fired()
	batch, subs := s.takeOutboxLocked()
	s.mu.Unlock()
	if err := s.commitAndSend(batch, subs); err != nil {
		if s.isRetired() {
			return // deposed: what it emitted is the new writer's to end
		}
		if s.fencedOut(err) {
			// Refused because another host appended: this batch must
			// never be retried, not even once this host claims the
			// session again (it would land after the new claim).
			s.deposeFenced(err, false)
			return
		}
		s.h.log.Error("journal commit failed; holding events and retrying", "session", s.id, "events", len(batch), "err", err)
		s.mu.Lock()
		s.outbox = append(batch, s.outbox...)
		retry := !s.flushScheduled && !s.h.isClosing()
		if retry {
			s.flushScheduled = true
			s.h.flushes.Add(1)
		}
		s.mu.Unlock()
		if retry {
			time.AfterFunc(100*time.Millisecond, s.flushAsync)
		}
	}
}

// flush journals and sends everything emitted so far, and returns once it
// is done. The caller holds neither fmu nor mu.
func (s *session) flush() error {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushLocked()
}

// flushLocked is flush for a caller holding fmu and mu. It commits with mu
// held, so that when it returns nothing emitted is left unsent.
func (s *session) flushLocked() error {
	if s.deposed {
		// What it emitted last may never have been committed: an answer
		// that waits for a flush must not claim it was.
		return errDeposed
	}
	batch, subs := s.takeOutboxLocked()
	err := s.commitAndSendLocked(batch, subs)
	if err != nil && s.fencedOut(err) {
		s.deposeFenced(err, true) // as in flushAsync: never retried
		return errDeposed
	}
	if err != nil {
		s.outbox = append(batch, s.outbox...)
	}
	return err
}

func (s *session) takeOutboxLocked() ([]pendingEvent, []*conn) {
	batch := s.outbox
	s.outbox = nil
	subs := make([]*conn, 0, len(s.subs))
	for c := range s.subs {
		subs = append(subs, c)
	}
	return batch, subs
}

// commitAndSend journals a batch (see commit), marks it sent and sends it
// to subs. The caller holds fmu but not mu: batches commit and go out in
// emission order.
func (s *session) commitAndSend(batch []pendingEvent, subs []*conn) error {
	if err := s.commit(batch, false); err != nil {
		return err
	}
	s.mu.Lock()
	s.markSentLocked(batch)
	notices := s.noticesLocked(batch)
	s.mu.Unlock()
	s.send(batch, subs)
	s.relay(batch)
	s.offerNotices(notices)
	return nil
}

// commitAndSendLocked is commitAndSend for a caller holding fmu and mu.
func (s *session) commitAndSendLocked(batch []pendingEvent, subs []*conn) error {
	if err := s.commit(batch, true); err != nil {
		return err
	}
	s.markSentLocked(batch)
	s.send(batch, subs)
	s.relay(batch)
	s.offerNotices(s.noticesLocked(batch))
	return nil
}

// commit journals a batch's durable events (and, when the batch passes the
// seq lease, a new lease) in one commit, with the streamed deltas gathered
// so far (streamrec.go). A batch of deltas alone is not committed: its
// deltas are recorded by the next commit, at most StreamRecordInterval
// later; all records them now (a flush, a checkpoint). The caller holds
// fmu.
func (s *session) commit(batch []pendingEvent, all bool) error {
	if len(batch) == 0 && !all {
		return nil
	}
	var lease int64
	if n := len(batch); n > 0 && batch[n-1].je.Seq > s.lease {
		lease = batch[n-1].je.Seq + leaseBlock
	}
	durable := s.h.j.durable()
	var durables []journalEvent
	var completed []string
	for _, p := range batch {
		switch {
		case p.durable:
			durables = append(durables, p.je)
			if p.je.Method == model.MethodItemCompleted {
				completed = append(completed, p.ev.Item.ID)
			}
			s.streams.seal()
		case p.je.Method == model.MethodItemDelta && durable:
			s.streams.add(p.je.Seq, p.ev)
		}
	}
	if !durable {
		completed = nil
	}
	var streamed []streamRecord
	recording := len(durables) > 0 || lease > 0 || all
	if recording {
		streamed = s.streams.records(s.id, completed)
	}
	var err error
	switch {
	case len(durables) > 0 || len(streamed) > 0:
		err = s.h.j.append(s.id, durables, streamed, completed, lease)
	case lease > 0:
		err = s.h.j.setLease(s.id, lease)
	default:
		s.scheduleStreamRecordLocked()
		return nil
	}
	if err != nil && s.fencedOut(err) {
		// Another fleet host claimed the session: this one steps down
		// (not under this caller's locks) rather than retry. A struct
		// the host no longer serves the session with (a takeover made a
		// new one) only stops itself (the caller deposes it): stepping
		// down by id would depose the host's current writer.
		if s.h.session(s.id) == s {
			go s.h.stepDown(s.id, err)
		}
		return err
	}
	if err != nil {
		s.h.health.failed(err)
		return err
	}
	if recording {
		s.streams.clear()
	}
	if s.h.health.err() != nil && (len(durables) > 0 || lease > 0) {
		s.h.health.ok()
		s.h.log.Info("journal commits succeed again", "session", s.id)
	}
	if lease > 0 {
		s.lease = lease
	}
	return nil
}

// markSentLocked advances the sent marks past a committed batch.
func (s *session) markSentLocked(batch []pendingEvent) {
	if len(batch) == 0 {
		return
	}
	s.sentSeq = batch[len(batch)-1].je.Seq
	for i := len(batch) - 1; i >= 0; i-- {
		if batch[i].durable {
			s.sentDurable = batch[i].je.Seq
			break
		}
	}
}

// send queues a committed batch on every subscriber, deltas only to those
// that asked for them.
func (s *session) send(batch []pendingEvent, subs []*conn) {
	if len(subs) == 0 {
		return
	}
	now := time.Now().UnixMilli()
	for _, p := range batch {
		m := s.outMsgFor(p.je.Method, p.je.Params, p.ev, now)
		for _, c := range subs {
			if m.kind == kindDelta && !c.deltas.Load() {
				continue
			}
			c.enqueue(m)
		}
	}
}

// buildParams encodes {"sessionId", "viewCursor", ["prevCursor"], fields...}.
func (s *session) buildParams(seq int64, durable bool, fields map[string]any) ([]byte, error) {
	rest, err := marshalJSON(fields)
	if err != nil {
		return nil, err
	}
	b := appendParamsHead(make([]byte, 0, len(rest)+128), s.id, seq)
	if durable {
		b = append(b, `,"prevCursor":`...)
		if d := s.lastDurableLocked(); d > 0 {
			b = model.AppendJSONString(b, model.FormatCursor(s.id, d))
		} else {
			b = append(b, "null"...)
		}
	}
	if len(rest) > 2 {
		b = append(b, ',')
		b = append(b, rest[1:]...)
	} else {
		b = append(b, '}')
	}
	return b, nil
}

// appendParamsHead opens an event's params: `{"sessionId":…,"viewCursor":…`.
func appendParamsHead(dst []byte, sid string, seq int64) []byte {
	dst = append(dst, `{"sessionId":`...)
	dst = model.AppendJSONString(dst, sid)
	dst = append(dst, `,"viewCursor":`...)
	return model.AppendJSONString(dst, model.FormatCursor(sid, seq))
}

func (s *session) outMsgFor(method string, params []byte, ev *model.Event, nowMs int64) outMsg {
	m := outMsg{data: notificationFrame(method, params, nowMs), kind: kindDurable}
	switch method {
	case model.MethodItemDelta:
		m.kind = kindDelta
		if ev != nil {
			m.shedKey = s.id + "\x00" + ev.ItemID
			m.delta = &deltaPart{ev: ev, emittedAtMs: nowMs}
		}
	case model.MethodWarning:
		m.kind = kindEphemeral
	case model.MethodItemStarted, model.MethodItemUpdated, model.MethodItemCompleted:
		m.kind = kindItemFull
		if ev != nil && ev.Item != nil {
			m.shedKey = s.id + "\x00" + ev.Item.ID
		}
	}
	return m
}
