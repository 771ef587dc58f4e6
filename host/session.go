package host

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// leaseBlock is how far ahead of the emitted seq the persisted high-water
// mark (the seq lease) is moved. A restarted host continues above the
// lease, so a seq is never reused even for ephemeral events that were never
// journaled; the lease costs one small write per leaseBlock events.
const leaseBlock = 4096

// session is one session: its seq counter, its fold (model.State: every
// turn, approval and value, but only the newest and the open items; see
// fold.go), its subscribers, its turns and the indexes that make paged
// reads lookups. Every field below mu is guarded by mu.
type session struct {
	h       *Host
	id      string
	epoch   string
	created string

	// A session that a graceful shutdown left quiet starts unloaded: stub
	// is what session/list shows of it until ensureLoaded (under lmu)
	// folds its journal on first use and sets loaded.
	stub    atomic.Pointer[sessionStub]
	loaded  atomic.Bool
	lmu     sync.Mutex
	loadErr error // guarded by lmu

	// fmu serialises flushes (commit, then send) and is held by whoever
	// must see everything emitted so far committed and sent (subscribe,
	// before pages). Lock order: fmu, then mu.
	fmu     sync.Mutex
	lease   int64        // persisted seq high-water mark; guarded by fmu
	streams streamBuffer // deltas sent, not recorded yet (streamrec.go); guarded by fmu

	mu             sync.Mutex
	seq            int64 // last seq assigned
	sentSeq        int64 // last seq committed and sent
	sentDurable    int64 // last durable seq committed and sent
	outbox         []pendingEvent
	flushScheduled bool
	deltaFlush     deltaFlush // a flush of deltas alone, left to gather (deltaflush.go)
	state          *model.State
	foldMark       foldMark // the fold's size after its last compaction
	updatedAt      time.Time
	subs           map[*conn]struct{}

	fullSeq   map[string]int64    // item id -> seq of its latest full-object event
	lastDelta map[string]int64    // item id -> seq of its latest delta
	open      map[string]struct{} // items not yet terminal
	positions []posEntry          // every item, ascending position
	durables  []int64             // seqs of durable events, ascending
	turnEnds  map[string]turnEnd  // turnId -> how it ended (the fold forgets on compaction)
	// recordedAt is the newest journaled item's; persistedHead the head of
	// the index last persisted or read (see checkpoint.go).
	recordedAt    string
	persistedHead int64

	commands  map[string]*command // by commandId
	byTurn    map[string]*command // by turnId
	rejected  *rejectionMemory    // the newest durable rejections
	active    *turnRun
	queue     []*queuedTurn
	approvals map[string]*approvalWait
	resolved  map[string]model.Decision // approvalId -> decision, for idempotent answers
	// questions wait for their answers (question.go); questionEnds
	// remember how every question ended, for idempotent answers.
	questions    map[string]*questionWait
	steering     map[string]*steerWait  // steers in flight, by commandId
	steered      map[string]steerResult // steers made by this process, by commandId
	questionEnds map[string]questionEnd

	// A replica is a session another fleet host writes, served here from
	// the journal and the writer's relayed frames (fleet_replica.go); it
	// never emits. writer is the fleet host that writes the session.
	replica bool // immutable
	// retired: a replica this host took over and no longer serves. It is
	// set under mu (retire), and read without it by request lookups.
	retired atomic.Bool
	writer  string
	// deposed: this host wrote the session and stopped (fleet_stepdown.go):
	// it emits nothing more.
	deposed   bool
	stopRelay func() error // immutable once the replica is shared
	// usedAt is when a request last found the replica, in Unix
	// nanoseconds (fleet_evict.go).
	usedAt atomic.Int64
}

type posEntry struct {
	pos int64
	id  string
}

func newSession(h *Host, rec sessionRecord) *session {
	st := model.NewState(rec.ID)
	st.Epoch = rec.Epoch
	s := &session{
		h: h, id: rec.ID, epoch: rec.Epoch, created: rec.CreatedAt,
		seq: rec.Lease, lease: rec.Lease, state: st,
		subs: map[*conn]struct{}{}, fullSeq: map[string]int64{}, lastDelta: map[string]int64{},
		open: map[string]struct{}{}, turnEnds: map[string]turnEnd{}, commands: map[string]*command{}, byTurn: map[string]*command{},
		rejected: newRejectionMemory(MaxRejections), approvals: map[string]*approvalWait{}, resolved: map[string]model.Decision{},
		questions: map[string]*questionWait{}, steering: map[string]*steerWait{}, steered: map[string]steerResult{}, questionEnds: map[string]questionEnd{},
	}
	s.loaded.Store(true)
	return s
}

// newStubSession is a session that starts unloaded (see ensureLoaded).
func newStubSession(h *Host, rec sessionRecord, stub sessionStub) *session {
	s := newSession(h, rec)
	s.stub.Store(&stub)
	s.loaded.Store(false)
	return s
}

// headLocked is the newest viewCursor's seq that clients may know: the
// last event committed and sent.
func (s *session) headLocked() int64 { return s.sentSeq }

// lastDurableLocked is the seq of the last durable event emitted (committed
// or not): the prevCursor of the next one.
func (s *session) lastDurableLocked() int64 { return s.state.DurableCursor }

func (s *session) unsubscribe(c *conn) {
	s.mu.Lock()
	delete(s.subs, c)
	s.mu.Unlock()
	s.touch() // a replica's idle time counts from its last subscriber
}

// summary is the session/list entry.
func (s *session) summary() map[string]any {
	if !s.loaded.Load() {
		return s.stubSummary()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.summaryLocked()
}

func (s *session) summaryLocked() map[string]any {
	title := ""
	if raw := s.state.Value("title"); raw != nil {
		if json.Unmarshal(raw, &title) != nil {
			title = "" // not a string: an untitled session
		}
	}
	title = cutUTF8(title, TitleBound) // journaled before titles were bounded
	status, queued := "idle", len(s.queue)
	if s.active != nil || (s.replica && s.state.ActiveTurn() != nil) {
		status = "running"
	}
	if s.replica {
		queued = len(s.state.QueuedTurns())
	}
	updated := s.created
	if !s.updatedAt.IsZero() {
		updated = s.updatedAt.UTC().Format(time.RFC3339Nano)
	}
	approvals := len(s.state.Approvals())
	e := map[string]any{"sessionId": s.id, "title": title, "status": status, "updatedAt": updated,
		"epoch": s.epoch, "head": model.FormatCursor(s.id, s.headLocked()), "queuedTurns": queued,
		"pendingApprovals": approvals}
	questions := len(model.WaitingQuestions(s.state.Items(), s.state.ActiveTurn()))
	if n := sessionNeeds(approvals, questions, status == "running" || queued > 0, s.state.LastTurn()); n != "" {
		e["needs"] = n
	}
	var cost float64
	if raw := s.state.Value("costUsd"); raw != nil && json.Unmarshal(raw, &cost) == nil && cost >= 0 {
		e["costUsd"] = cost // the agent's own total, where it reports one
	}
	if f := s.h.fleet(); f != nil {
		e["host"] = f.m.HostID()
		if s.replica {
			e["host"] = s.writer
		}
	}
	return e
}
