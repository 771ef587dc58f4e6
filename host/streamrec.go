package host

import (
	"slices"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// Deltas are ephemeral on the wire, but a host that dies mid-stream
// restates in the host-death terminal the text its clients saw
// (recovery.go). So a durable host records what an open item streamed,
// for recovery only. It does not record each delta before sending it (an
// answer at 2,000 deltas a second was 12,000 commits and 65-82 MB of
// write-ahead log): deltas are sent at once and gathered here, joined
// into one record per run of one item's field, and recorded at most
// StreamRecordInterval later, or sooner with the next durable commit or
// flush. A kill -9 therefore loses at most the last interval of streamed
// text, which recovery cannot restate; everything before it is kept.

// StreamRecordInterval is how far behind what clients saw the streamed
// text a durable host has recorded may be: a host killed mid-stream
// restates in its host-death terminals all the text its clients saw but
// at most this last part.
const StreamRecordInterval = 250 * time.Millisecond

// maxStreamRun bounds the text of one record, so that a long run is a
// few modest rows rather than one that grows with every checkpoint.
const maxStreamRun = 64 << 10

// streamRun is consecutive deltas of one item's field not recorded yet:
// their text joined, at the last one's seq.
type streamRun struct {
	itemID, field string
	lastSeq       int64
	text          []byte
}

// streamBuffer holds the deltas sent but not yet recorded. The session's
// fmu guards it.
type streamBuffer struct {
	runs []streamRun
	// sealed: a durable event came after the last run, which must not be
	// extended across it (a full object restates the deltas before it,
	// and recovery skips only records older than it).
	sealed bool
	// through is the last seq taken: a batch committed again after a
	// failure adds its deltas once.
	through   int64
	scheduled bool // a checkpoint timer is pending
}

// add takes a sent delta.
func (b *streamBuffer) add(seq int64, ev *model.Event) {
	if seq <= b.through {
		return
	}
	b.through = seq
	if n := len(b.runs); n > 0 && !b.sealed {
		r := &b.runs[n-1]
		if r.itemID == ev.ItemID && r.field == ev.Field && len(r.text)+len(ev.Delta) <= maxStreamRun {
			r.text = append(r.text, ev.Delta...)
			r.lastSeq = seq
			return
		}
	}
	b.runs = append(b.runs, streamRun{itemID: ev.ItemID, field: ev.Field, lastSeq: seq, text: []byte(ev.Delta)})
	b.sealed = false
}

// seal ends the current run at a durable event.
func (b *streamBuffer) seal() { b.sealed = true }

// records are the records of every run but those of the completed items
// (their final objects restate them). The buffer keeps them until clear:
// a commit that fails records them with the next one.
func (b *streamBuffer) records(sid string, completed []string) []streamRecord {
	var out []streamRecord
	for _, r := range b.runs {
		if slices.Contains(completed, r.itemID) {
			continue
		}
		ev := model.Event{SessionID: sid, Seq: r.lastSeq, ItemID: r.itemID, Field: r.field, Delta: string(r.text)}
		out = append(out, streamRecord{Seq: r.lastSeq, ItemID: r.itemID, Params: deltaParams(&ev)})
	}
	return out
}

// clear empties the buffer once its records are stored.
func (b *streamBuffer) clear() { b.runs, b.sealed = nil, false }

// scheduleStreamRecordLocked starts the checkpoint that records what the
// buffer gathered, unless one is pending. The caller holds fmu.
func (s *session) scheduleStreamRecordLocked() {
	if s.streams.scheduled || len(s.streams.runs) == 0 {
		return
	}
	s.streams.scheduled = true
	s.h.flushes.Add(1) // Close waits for it before closing the journal
	time.AfterFunc(StreamRecordInterval, s.recordStreams)
}

// recordStreams is the checkpoint: it records the deltas gathered since
// the last commit, in one commit.
func (s *session) recordStreams() {
	defer s.h.flushes.Done()
	s.fmu.Lock()
	defer s.fmu.Unlock()
	s.streams.scheduled = false
	s.mu.Lock()
	deposed := s.deposed
	s.mu.Unlock()
	if deposed {
		s.streams.clear() // the new writer's recovery ends the items
		return
	}
	if err := s.commit(nil, true); err != nil && !s.h.isClosing() {
		s.h.log.Warn("could not record streamed text; trying again", "session", s.id, "err", err)
		s.scheduleStreamRecordLocked()
	}
}
