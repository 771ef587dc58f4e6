package host

import (
	"slices"
	"sort"
	"sync"
)

// journalEvent is one durable event as stored: its seq, method and the
// params object exactly as it was sent.
type journalEvent struct {
	Seq    int64
	Method string
	Params []byte
}

// streamRecord is one streamed delta as stored for crash recovery: deltas
// are never replayed to clients, but a host that dies mid-stream uses them
// to restate the text streamed so far in the host-death terminal.
type streamRecord struct {
	Seq    int64
	ItemID string
	Params []byte
}

// rejection is a durable turn/submit rejection as stored.
type rejection struct {
	CommandID, Reason string
}

// sessionRecord is a session as stored.
type sessionRecord struct {
	ID        string
	Epoch     string
	CreatedAt string
	// Lease is the seq high-water mark: no seq above it was ever emitted.
	Lease int64
}

// journal is the host's store: a plain store that knows nothing of
// sessions' turns, fleets or clients (the host drives it; a fleet host's
// membership works beside it, fleet_membership.go, as nats-server's
// cluster code drives stores that know nothing of it). It is the sum of the roles below. Appends
// for one session are serialised by the caller (the session lock); reads
// may run concurrently with appends and see every append that returned
// before they started.
//
// The error contract common to every method: nil means done and, for a
// durable journal, committed (it survives the process; with SyncFull it
// survives the machine). A non-nil error means the call did nothing the
// caller may rely on; the journal stays usable and the caller may call it
// again. Each role says what else an error means and what the host does.
type journal interface {
	sessionStore
	eventLog
	streamStore
	rejectionStore
	metaStore
	// durable reports whether the journal outlives the process (false for
	// the ephemeral profile's memory journal).
	durable() bool
	// close releases the store. No method may be called after it.
	close() error
}

// sessionStore holds one record per session.
type sessionStore interface {
	// createSession stores a new session's record. An error: the session
	// does not exist; session/create fails and nothing is kept.
	createSession(rec sessionRecord) error
	// sessions returns every session's record. An error at start is fatal
	// to the host's start (it cannot know what it serves).
	sessions() ([]sessionRecord, error)
	// setLease records the session's new seq high-water mark alone (see
	// eventLog.append). Its errors are append's.
	setLease(sid string, lease int64) error
}

// eventLog is each session's durable events, in seq order.
type eventLog interface {
	// append stores events in one commit, all or none; when lease > 0 it
	// also records the session's new seq high-water mark in the same
	// commit. In the same commit it records streamed deltas and forgets
	// those of the items in completed (their final objects restate what
	// the deltas built).
	//
	// Errors: errJournalNotWriter (a fleet journal only) means another
	// host appended to the session since this one last did: nothing was
	// stored, and the caller must stop writing the session (it steps
	// down) rather than retry. Any other error means the commit is not
	// known to have happened (errCommitUncertain when it may have): the
	// host holds the events back from clients, reports its journal
	// failing and answers turn/submit backpressured until a commit
	// succeeds again.
	append(sid string, evs []journalEvent, streamed []streamRecord, completed []string, lease int64) error
	// readAfter returns events with after < seq <= upto, oldest first, at
	// most limit of them and about maxBytes of params (at least one), and
	// whether more events in range remain.
	readAfter(sid string, after, upto int64, limit, maxBytes int) ([]journalEvent, bool, error)
	// readSeqs returns the events with the given seqs, in seq order; a
	// seq the log lacks is left out, not an error.
	readSeqs(sid string, seqs []int64) ([]journalEvent, error)
	// lastSeq is the seq of the session's last event (0 without one).
	lastSeq(sid string) (int64, error)
	// scan calls fn for every event of a session in seq order, and stops
	// at fn's first error, which it returns.
	//
	// Read errors (readAfter, readSeqs, lastSeq, scan) never change the
	// log: the request that asked fails, backpressured (-32001, "journal
	// read failed"), and may be retried; a session whose events cannot be
	// loaded answers every request with that load error.
	scan(sid string, fn func(journalEvent) error) error
}

// streamStore is the streamed deltas a durable host records for crash
// recovery (written by eventLog.append).
type streamStore interface {
	// streams returns the session's recorded deltas in seq order;
	// dropStreams forgets them all. An error from either fails the
	// session's recovery at start, and with it the host's start.
	streams(sid string) ([]streamRecord, error)
	dropStreams(sid string) error
}

// rejectionStore remembers durable turn/submit rejections, so that a
// retried commandId is rejected again.
type rejectionStore interface {
	// reject remembers a rejection; an error answers the turn/submit that
	// would have been rejected backpressured (-32001, retry with the same
	// commandId), so that no rejection is answered that a restart would
	// forget.
	reject(sid, commandID, reason string) error
	// forget drops the named ones; an error only keeps them longer.
	forget(sid string, commandIDs []string) error
	// rejections returns a session's rejections oldest first.
	rejections(sid string) ([]rejection, error)
}

// metaStore is a small key-value map for the host's own records (the
// clean-shutdown mark, checkpoint indexes, the demo session's id). A
// missing key reads as "", not an error; callers treat a failed write as
// a record not kept (a checkpoint not taken, a slower next start).
type metaStore interface {
	setMeta(key, value string) error
	meta(key string) (string, error)
}

// memJournal is the ephemeral profile's journal: everything in memory.
type memJournal struct {
	mu     sync.RWMutex
	recs   []sessionRecord
	events map[string][]journalEvent
	rej    map[string][]rejection
	kv     map[string]string
}

func newMemJournal() *memJournal {
	return &memJournal{events: map[string][]journalEvent{}, rej: map[string][]rejection{}, kv: map[string]string{}}
}

func (m *memJournal) durable() bool { return false }

func (m *memJournal) createSession(rec sessionRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, rec)
	return nil
}

func (m *memJournal) sessions() ([]sessionRecord, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Clone(m.recs), nil
}

// append ignores streamed deltas: an ephemeral host never recovers.
func (m *memJournal) append(sid string, evs []journalEvent, _ []streamRecord, _ []string, _ int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.events[sid] = append(m.events[sid], evs...)
	return nil
}

func (m *memJournal) streams(string) ([]streamRecord, error) { return nil, nil }
func (m *memJournal) dropStreams(string) error               { return nil }

func (m *memJournal) setLease(string, int64) error { return nil }

func (m *memJournal) readAfter(sid string, after, upto int64, limit, maxBytes int) ([]journalEvent, bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	all := m.events[sid]
	i := sort.Search(len(all), func(i int) bool { return all[i].Seq > after })
	var out []journalEvent
	size := 0
	for ; i < len(all) && all[i].Seq <= upto; i++ {
		if len(out) >= limit || (len(out) > 0 && size+len(all[i].Params) > maxBytes) {
			return out, true, nil
		}
		out = append(out, all[i])
		size += len(all[i].Params)
	}
	return out, false, nil
}

func (m *memJournal) readSeqs(sid string, seqs []int64) ([]journalEvent, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	all := m.events[sid]
	out := make([]journalEvent, 0, len(seqs))
	for _, q := range seqs {
		i := sort.Search(len(all), func(i int) bool { return all[i].Seq >= q })
		if i < len(all) && all[i].Seq == q {
			out = append(out, all[i])
		}
	}
	slices.SortFunc(out, func(a, b journalEvent) int { return int(a.Seq - b.Seq) })
	return out, nil
}

func (m *memJournal) lastSeq(sid string) (int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if evs := m.events[sid]; len(evs) > 0 {
		return evs[len(evs)-1].Seq, nil
	}
	return 0, nil
}

func (m *memJournal) scan(sid string, fn func(journalEvent) error) error {
	m.mu.RLock()
	evs := slices.Clone(m.events[sid])
	m.mu.RUnlock()
	for _, e := range evs {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

func (m *memJournal) reject(sid, cid, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.ContainsFunc(m.rej[sid], func(r rejection) bool { return r.CommandID == cid }) {
		m.rej[sid] = append(m.rej[sid], rejection{cid, reason})
	}
	return nil
}

func (m *memJournal) forget(sid string, cids []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rej[sid] = slices.DeleteFunc(m.rej[sid], func(r rejection) bool { return slices.Contains(cids, r.CommandID) })
	return nil
}

func (m *memJournal) rejections(sid string) ([]rejection, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Clone(m.rej[sid]), nil
}

func (m *memJournal) setMeta(k, v string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.kv[k] = v
	return nil
}

func (m *memJournal) meta(k string) (string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.kv[k], nil
}

func (m *memJournal) close() error { return nil }
