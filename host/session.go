package host

import (
	"encoding/json"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// leaseBlock is how far ahead of the emitted seq the persisted high-water
// mark (the seq lease) is moved. A restarted host continues above the
// lease, so a seq is never reused even for ephemeral events that were never
// journaled; the lease costs one small write per leaseBlock events.
const leaseBlock = 4096

// session is one session: its seq counter, its fold (model.State, the
// source of snapshots), its subscribers, its turns and the indexes that
// make paged reads lookups. Every field below mu is guarded by mu.
type session struct {
	h       *Host
	id      string
	epoch   string
	created string

	mu        sync.Mutex
	seq       int64 // last seq assigned
	lease     int64 // persisted high-water mark: seq <= lease always
	state     *model.State
	updatedAt time.Time
	subs      map[*conn]struct{}

	fullSeq   map[string]int64    // item id -> seq of its latest full-object event
	lastDelta map[string]int64    // item id -> seq of its latest delta
	open      map[string]struct{} // items not yet terminal
	positions []posEntry          // every item, ascending position
	durables  []int64             // seqs of durable events, ascending

	commands  map[string]*command // by commandId
	byTurn    map[string]*command // by turnId
	rejected  map[string]string   // commandId -> durable rejection reason
	active    *turnRun
	queue     []*queuedTurn
	approvals map[string]*approvalWait
	resolved  map[string]string // approvalId -> decision, for idempotent answers
}

type posEntry struct {
	pos int64
	id  string
}

func newSession(h *Host, rec sessionRecord) *session {
	st := model.NewState(rec.ID)
	st.Epoch = rec.Epoch
	return &session{
		h: h, id: rec.ID, epoch: rec.Epoch, created: rec.CreatedAt,
		seq: rec.Lease, lease: rec.Lease, state: st,
		subs: map[*conn]struct{}{}, fullSeq: map[string]int64{}, lastDelta: map[string]int64{},
		open: map[string]struct{}{}, commands: map[string]*command{}, byTurn: map[string]*command{},
		rejected: map[string]string{}, approvals: map[string]*approvalWait{}, resolved: map[string]string{},
	}
}

// head is the newest viewCursor's seq: the last event folded.
func (s *session) headLocked() int64 { return s.state.Cursor }

func (s *session) lastDurableLocked() int64 { return s.state.DurableCursor }

// emitLocked emits one event into the session: it assigns the next seq,
// journals a durable event (before anything is sent), folds the event into
// the session's state and queues it to every subscriber. fields are the
// params beyond sessionId, viewCursor and prevCursor.
func (s *session) emitLocked(method string, fields map[string]any) (int64, error) {
	durable, _ := model.IsDurable(method)
	seq := s.seq + 1
	params, err := s.buildParams(seq, durable, fields)
	if err != nil {
		return 0, err
	}
	var lease int64
	if seq > s.lease {
		lease = seq + leaseBlock
	}
	if durable {
		if err := s.h.j.append(s.id, []journalEvent{{Seq: seq, Method: method, Params: params}}, lease); err != nil {
			s.h.log.Error("journal append failed", "session", s.id, "seq", seq, "err", err)
			return 0, err
		}
	} else if lease > 0 {
		if err := s.h.j.setLease(s.id, lease); err != nil {
			s.h.log.Error("journal lease failed", "session", s.id, "err", err)
			return 0, err
		}
	}
	if lease > 0 {
		s.lease = lease
	}
	s.seq = seq
	s.updatedAt = time.Now()
	ev, err := model.DecodeNotification(method, params)
	if err == nil {
		err = s.state.Apply(ev)
	}
	if err != nil {
		// The host emitted something its own fold refuses: a host bug. The
		// event is already journaled and is still sent.
		s.h.log.Error("host fold refused its own event", "session", s.id, "seq", seq, "method", method, "err", err)
	} else {
		s.indexLocked(ev)
	}
	s.fanoutLocked(method, params, ev)
	return seq, nil
}

// buildParams encodes {"sessionId", "viewCursor", ["prevCursor"], fields...}.
func (s *session) buildParams(seq int64, durable bool, fields map[string]any) ([]byte, error) {
	rest, err := marshalJSON(fields)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(rest)+128)
	b = append(b, `{"sessionId":`...)
	b = strconv.AppendQuote(b, s.id)
	b = append(b, `,"viewCursor":`...)
	b = strconv.AppendQuote(b, model.FormatCursor(s.id, seq))
	if durable {
		b = append(b, `,"prevCursor":`...)
		if d := s.lastDurableLocked(); d > 0 {
			b = strconv.AppendQuote(b, model.FormatCursor(s.id, d))
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

// indexLocked maintains the lookup indexes after ev was folded.
func (s *session) indexLocked(ev *model.Event) {
	if ev.Durable {
		s.durables = append(s.durables, ev.Seq)
	}
	switch ev.Method {
	case model.MethodItemStarted, model.MethodItemUpdated, model.MethodItemCompleted:
		id := ev.Item.ID
		if _, seen := s.fullSeq[id]; !seen {
			pos := ev.Seq
			if it := s.state.Item(id); it != nil {
				pos = it.Position
			}
			s.insertPosition(posEntry{pos: pos, id: id})
		}
		s.fullSeq[id] = ev.Seq
		if it := s.state.Item(id); it != nil && it.IsOpen() {
			s.open[id] = struct{}{}
		} else {
			delete(s.open, id)
			delete(s.lastDelta, id)
		}
	case model.MethodItemDelta:
		s.lastDelta[ev.ItemID] = ev.Seq
	}
}

func (s *session) insertPosition(e posEntry) {
	n := len(s.positions)
	if n == 0 || s.positions[n-1].pos < e.pos || (s.positions[n-1].pos == e.pos && s.positions[n-1].id < e.id) {
		s.positions = append(s.positions, e)
		return
	}
	i := sort.Search(n, func(i int) bool {
		p := s.positions[i]
		return p.pos > e.pos || (p.pos == e.pos && p.id > e.id)
	})
	s.positions = append(s.positions, posEntry{})
	copy(s.positions[i+1:], s.positions[i:])
	s.positions[i] = e
}

// fanoutLocked queues a notification to every subscriber.
func (s *session) fanoutLocked(method string, params []byte, ev *model.Event) {
	if len(s.subs) == 0 {
		return
	}
	m := s.outMsgFor(method, params, ev, time.Now().UnixMilli())
	for c := range s.subs {
		if m.kind == kindDelta && !c.deltas.Load() {
			continue
		}
		c.enqueue(m)
	}
}

func (s *session) outMsgFor(method string, params []byte, ev *model.Event, nowMs int64) outMsg {
	m := outMsg{data: notificationFrame(method, params, nowMs), kind: kindDurable}
	switch method {
	case model.MethodItemDelta:
		m.kind = kindDelta
		if ev != nil {
			m.shedKey = s.id + "\x00" + ev.ItemID
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

func (s *session) unsubscribe(c *conn) {
	s.mu.Lock()
	delete(s.subs, c)
	s.mu.Unlock()
}

// summary is the session/list entry.
func (s *session) summary() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	title := ""
	if raw := s.state.Value("title"); raw != nil {
		json.Unmarshal(raw, &title)
	}
	status := "idle"
	if s.active != nil {
		status = "running"
	}
	updated := s.created
	if !s.updatedAt.IsZero() {
		updated = s.updatedAt.UTC().Format(time.RFC3339Nano)
	}
	return map[string]any{"sessionId": s.id, "title": title, "status": status, "updatedAt": updated,
		"epoch": s.epoch, "head": model.FormatCursor(s.id, s.headLocked()), "queuedTurns": len(s.queue)}
}
