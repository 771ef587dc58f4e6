package host

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// A fleet host serves every session of its fleet. A session another host
// writes is served from a replica: a session folded from the journal,
// kept current by the frames its writer relays (every batch it sends its
// own clients, deltas included) and, when a relayed durable event's
// prevCursor shows a frame was missed, by reading the journal from the
// replica's durable cursor. A replica never emits: the requests that
// would make it emit are forwarded to the writer (fleet_forward.go).

// fleet is the host's part in a fleet, nil when the host is no fleet host.
func (h *Host) fleet() *fleetMembership { return h.fl }

// relayedEvent is one event of a relayed batch.
type relayedEvent struct {
	Seq    int64           `json:"s"`
	Method string          `json:"m"`
	Params json.RawMessage `json:"p"`
}

// relay publishes a batch this host committed and sent to its clients to
// every fleet host serving the session. The caller holds fmu, so batches
// go out in order. A lost publish costs a reader a catch-up read.
func (s *session) relay(batch []pendingEvent) {
	f := s.h.fleet()
	if f == nil || len(batch) == 0 || s.replica {
		return
	}
	evs := make([]relayedEvent, len(batch))
	for i, p := range batch {
		evs[i] = relayedEvent{Seq: p.je.Seq, Method: p.je.Method, Params: p.je.Params}
	}
	b, err := json.Marshal(evs)
	if err == nil {
		err = f.m.PublishLive(s.id, b)
	}
	if err != nil {
		s.h.log.Warn("could not relay a batch to the fleet", "session", s.id, "err", err)
	}
}

// replicaSession returns the session sid of another fleet host, as a
// replica made on first use; nil and no error when the fleet has no such
// session (or this host is no fleet host).
func (h *Host) replicaSession(sid string) (*session, error) {
	f := h.fleet()
	if f == nil || sid == "" {
		return nil, nil
	}
	h.replicaMu.Lock()
	defer h.replicaMu.Unlock()
	if s := h.session(sid); s != nil && !s.isRetired() {
		s.touch()
		return s, nil
	}
	rec, ok, err := f.js.sessionRecord(sid)
	if err != nil || !ok {
		return nil, err
	}
	// This host does not write the session (unless it is taking it over
	// right now): the tail it may have written once is not the tail,
	// whatever its journal remembers.
	if !f.holds(sid) {
		f.js.fence(sid)
	}
	s := newSession(h, rec)
	s.replica = true
	if e, err := f.m.Lookup(context.Background(), sid); err == nil {
		s.writer = e.HostID
	}
	// Subscribe first: a frame relayed while the journal is read is
	// either in what was read (and skipped by its seq) or applied after.
	ready := make(chan struct{})
	stop, err := f.m.SubscribeLive(sid, func(frame []byte) {
		<-ready
		s.ingestRelayed(frame)
	})
	if err != nil {
		return nil, err
	}
	if err := s.load(); err != nil {
		_ = stop() // the load's error is the one to report
		close(ready)
		return nil, fmt.Errorf("journal: session %s: %w", sid, err)
	}
	s.seq = s.state.Cursor // a replica's seq is the last one it saw, not a lease
	s.stopRelay = stop
	s.touch()
	close(ready)
	h.mu.Lock()
	closing := h.closing
	if !closing {
		h.sessions[sid] = s
		h.replaceRetiredLocked(s) // a session this host wrote before
	}
	h.mu.Unlock()
	if closing {
		_ = stop()
		return nil, errHostClosing
	}
	return s, nil
}

// ingestRelayed applies a relayed batch to the replica and sends it to
// the replica's subscribers: events it already holds are skipped, and a
// durable event whose prevCursor is past the replica's durable cursor
// makes it read the missed events from the journal first.
func (s *session) ingestRelayed(frame []byte) {
	var evs []relayedEvent
	if err := json.Unmarshal(frame, &evs); err != nil {
		s.h.log.Warn("ignoring an unreadable relayed frame", "session", s.id, "err", err)
		return
	}
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retired.Load() {
		return
	}
	var batch []pendingEvent
	for _, e := range evs {
		ev, err := model.DecodeNotification(e.Method, e.Params)
		if err != nil {
			s.h.log.Warn("ignoring an unreadable relayed event", "session", s.id, "seq", e.Seq, "err", err)
			continue
		}
		if ev.Durable && ev.PrevSeq > s.state.DurableCursor {
			caught, err := s.catchUpLocked()
			batch = append(batch, caught...)
			if err != nil {
				s.h.log.Error("could not read a replica's missed events; the next relayed event tries again", "session", s.id, "err", err)
				break
			}
		}
		if p, ok := s.ingestLocked(journalEvent{Seq: e.Seq, Method: e.Method, Params: e.Params}, ev); ok {
			batch = append(batch, p)
		}
	}
	s.sendIngestedLocked(batch)
}

// refreshLocked brings a replica up to its journal before it answers a
// subscribe or a page: the last relayed frame of a burst may have been
// lost, with no later one to show the gap. The caller holds fmu and mu.
func (s *session) refreshLocked() error {
	if !s.replica || s.retired.Load() {
		return nil
	}
	caught, err := s.catchUpLocked()
	s.sendIngestedLocked(caught)
	return err
}

// catchUpLocked folds the journal's durable events past the replica's
// durable cursor: those whose relayed frames it missed.
func (s *session) catchUpLocked() ([]pendingEvent, error) {
	last, err := s.h.j.lastSeq(s.id)
	if err != nil {
		return nil, err
	}
	var out []pendingEvent
	for s.state.DurableCursor < last {
		evs, more, err := s.h.j.readAfter(s.id, s.state.DurableCursor, last, MaxPageLimit, PageBytes)
		if err != nil {
			return out, err
		}
		for _, e := range evs {
			ev, err := model.DecodeNotification(e.Method, e.Params)
			if err != nil {
				return out, fmt.Errorf("seq %d: %w", e.Seq, err)
			}
			if p, ok := s.ingestLocked(e, ev); ok {
				out = append(out, p)
			}
		}
		if !more || len(evs) == 0 {
			break
		}
	}
	return out, nil
}

// ingestLocked folds one event the writer emitted into the replica, as
// emitLocked folds an event on the writer; false when the replica holds
// it already or its fold refuses it.
func (s *session) ingestLocked(je journalEvent, ev *model.Event) (pendingEvent, bool) {
	if (ev.Durable && ev.Seq <= s.state.DurableCursor) || (!ev.Durable && ev.Seq <= s.state.Cursor) {
		return pendingEvent{}, false
	}
	if err := s.state.Apply(ev); err != nil {
		s.h.log.Error("a replica's fold refuses a relayed event", "session", s.id, "seq", ev.Seq, "err", err)
		return pendingEvent{}, false
	}
	s.seq = max(s.seq, ev.Seq)
	s.updatedAt = time.Now()
	s.indexLocked(ev)
	if isFullObject(je.Method) {
		s.maybeCompactLocked()
	}
	s.trackCommand(ev)
	return pendingEvent{je: je, durable: ev.Durable, ev: ev}, true
}

// sendIngestedLocked marks ingested events sent and sends them to the
// replica's subscribers.
func (s *session) sendIngestedLocked(batch []pendingEvent) {
	if len(batch) == 0 {
		return
	}
	for _, p := range batch {
		s.sentSeq = max(s.sentSeq, p.je.Seq)
		if p.durable {
			s.sentDurable = max(s.sentDurable, p.je.Seq)
		}
	}
	subs := make([]*conn, 0, len(s.subs))
	for c := range s.subs {
		subs = append(subs, c)
	}
	s.send(batch, subs)
}

// isRetired reports whether s is a replica this host took over.
func (s *session) isRetired() bool { return s.retired.Load() }

// retire stops serving a replica this host is about to write (it took
// the session over): its relay ends and it ingests nothing more. It
// returns the connections subscribed to it, which must resume on the
// session as this host now writes it (closeResumers).
func (s *session) retire() []*conn {
	if s.stopRelay != nil {
		_ = s.stopRelay() // the member may be closing: its subscriptions end anyway
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.retired.Store(true) // ingestRelayed ignores late frames
	subs := make([]*conn, 0, len(s.subs))
	for c := range s.subs {
		subs = append(subs, c)
	}
	return subs
}

// closeResumers closes the connections of a retired replica's
// subscribers, so that their clients resume.
func closeResumers(conns []*conn) {
	for _, c := range conns {
		c.closeAfterFlush(closeServiceRestart, resumeReason)
	}
}

// resumeReason is the close reason of a retired replica's subscribers.
const resumeReason = "the session's writer changed; resume"

// closeServiceRestart closes a connection whose subscribed replica was
// taken over by this host: the client reconnects and resumes.
const closeServiceRestart = 1012
