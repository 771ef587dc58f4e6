package host

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// refs brings l's commit refs up to the subject's tail and returns them.
func (j *jsJournal) refs(ctx context.Context, sid string) (ev, streams []commitRef, high int64, err error) {
	l := j.log(sid)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := j.syncTail(ctx, sid, l); err != nil {
		return nil, nil, 0, err
	}
	if l.refsTo < l.tail.at {
		err := j.directRange(ctx, j.subject(sid), l.refsTo+1, l.tail.at, maxBatch, func(at uint64, h nats.Header, _ []byte) error {
			ref, _, err := refOf(at, h)
			if err == nil {
				l.index(ref)
			}
			return err
		})
		if err != nil {
			return nil, nil, 0, err
		}
	}
	if n := len(l.evRefs); n > 0 {
		// A forked journal may end on the skipped chain's commit.
		l.tail.high = max(l.tail.high, l.evRefs[n-1].last)
	}
	// Appends only add to the slices: clipping them makes the copies safe.
	return slices.Clip(l.evRefs), slices.Clip(l.streamRefs), l.tail.high, nil
}

func (j *jsJournal) readAfter(sid string, after, upto int64, limit, maxBytes int) ([]journalEvent, bool, error) {
	ctx, cancel := j.opContext()
	defer cancel()
	refs, _, _, err := j.refs(ctx, sid)
	if err != nil {
		return nil, false, err
	}
	i := sort.Search(len(refs), func(i int) bool { return refs[i].last > after })
	if i == len(refs) || refs[i].first > upto {
		return nil, false, nil
	}
	// Every event of the commits past the first is in range: read until
	// they hold enough to fill the page and see one more.
	k, n := i, int64(0)
	for k+1 < len(refs) && n < int64(limit) && refs[k+1].first <= upto {
		k++
		n += refs[k].count
	}
	var out []journalEvent
	size := 0
	more := false
	err = j.readCommits(ctx, sid, refs[i:k+1], func(c commit) error {
		for _, e := range c.events {
			switch {
			case e.Seq <= after:
			case e.Seq > upto:
				return errStopRange
			case len(out) >= limit || (len(out) > 0 && size+len(e.Params) > maxBytes):
				more = true
				return errStopRange
			default:
				out = append(out, e)
				size += len(e.Params)
			}
		}
		return nil
	})
	if errors.Is(err, errStopRange) {
		err = nil
	}
	return out, more, err
}

// readCommit reads and decodes the commit ref names on sid's subject.
// The caller knows the message exists (a ref named it), so "not found"
// is a replica that has not caught up yet, and is asked again for a
// while before it counts.
func (j *jsJournal) readCommit(ctx context.Context, sid string, ref commitRef) (commit, error) {
	if ref.pieced() {
		var c commit
		err := j.readCommits(ctx, sid, []commitRef{ref}, func(got commit) error { c = got; return nil })
		return c, err
	}
	at := ref.at
	var m *jetstream.RawStreamMsg
	lagUntil := time.Now().Add(replicaLagWait)
	err := retrying(ctx, func(ctx context.Context) (err error) {
		m, err = j.stream.GetMsg(ctx, at)
		if errors.Is(err, jetstream.ErrMsgNotFound) && time.Now().Before(lagUntil) {
			return fmt.Errorf("%w: %w", errReplicaLag, err)
		}
		return err
	})
	if err != nil {
		return commit{}, fmt.Errorf("journal: commit %d: %w", at, err)
	}
	return decodeCommit(m.Data)
}

// replicaLagWait bounds how long a message known to exist may be
// missing from the replica that answers a read.
const replicaLagWait = 3 * time.Second

// errReplicaLag marks a read a lagging replica could not answer yet.
var errReplicaLag = errors.New("journal: replica behind")

// errStopRange ends a directRange early: the reader has what it needs.
var errStopRange = errors.New("journal: enough read")

func (j *jsJournal) readSeqs(sid string, seqs []int64) ([]journalEvent, error) {
	if len(seqs) == 0 {
		return nil, nil
	}
	ctx, cancel := j.opContext()
	defer cancel()
	refs, _, _, err := j.refs(ctx, sid)
	if err != nil {
		return nil, err
	}
	want := map[int64]bool{}
	var hold []commitRef
	for _, q := range seqs {
		i := sort.Search(len(refs), func(i int) bool { return refs[i].last >= q })
		if i < len(refs) && refs[i].first <= q {
			want[q] = true
			hold = append(hold, refs[i])
		}
	}
	slices.SortFunc(hold, func(a, b commitRef) int { return cmp.Compare(a.at, b.at) })
	var out []journalEvent
	for _, ref := range slices.CompactFunc(hold, func(a, b commitRef) bool { return a.at == b.at }) {
		c, err := j.readCommit(ctx, sid, ref)
		if err != nil {
			return nil, err
		}
		for _, e := range c.events {
			if want[e.Seq] {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

func (j *jsJournal) lastSeq(sid string) (int64, error) {
	ctx, cancel := j.opContext()
	defer cancel()
	_, _, high, err := j.refs(ctx, sid)
	return high, err
}

// scan reads the whole subject in batches; fn runs outside the session's
// lock, so it may call back into the journal.
func (j *jsJournal) scan(sid string, fn func(journalEvent) error) error {
	ctx, cancel := j.opContext()
	defer cancel()
	refs, _, _, err := j.refs(ctx, sid)
	if err != nil || len(refs) == 0 {
		return err
	}
	return j.readCommits(ctx, sid, refs, func(c commit) error {
		for _, e := range c.events {
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	})
}

// streams folds the commits that recorded or forgot deltas since the last
// drop: records in, then those of the items each commit completed out.
func (j *jsJournal) streams(sid string) ([]streamRecord, error) {
	ctx, cancel := j.opContext()
	defer cancel()
	_, srefs, _, err := j.refs(ctx, sid)
	if err != nil || len(srefs) == 0 {
		return nil, err
	}
	var recs []streamRecord
	for _, ref := range srefs {
		c, err := j.readCommit(ctx, sid, ref)
		if err != nil {
			return nil, err
		}
		for _, r := range c.streamed {
			if !slices.ContainsFunc(recs, func(o streamRecord) bool { return o.Seq == r.Seq }) {
				recs = append(recs, r)
			}
		}
		if len(c.completed) > 0 {
			recs = slices.DeleteFunc(recs, func(r streamRecord) bool { return slices.Contains(c.completed, r.ItemID) })
		}
	}
	slices.SortFunc(recs, func(a, b streamRecord) int { return cmp.Compare(a.Seq, b.Seq) })
	return recs, nil
}

// dropStreams appends a drop marker when deltas are recorded.
func (j *jsJournal) dropStreams(sid string) error {
	ctx, cancel := j.opContext()
	defer cancel()
	_, srefs, _, err := j.refs(ctx, sid)
	if err != nil || len(srefs) == 0 {
		return err
	}
	return j.write(sid, commit{}, 0, commitMarks{drop: true})
}

// readCommits decodes the commits refs name, in order, joining the
// pieces of one stored in pieces. Other messages between them on the
// subject (parts of a commit a dead writer left unfinished) are skipped.
func (j *jsJournal) readCommits(ctx context.Context, sid string, refs []commitRef, fn func(commit) error) error {
	if len(refs) == 0 {
		return nil
	}
	next := 0
	var joined []byte
	return j.directRange(ctx, j.subject(sid), refs[0].at, refs[len(refs)-1].end, len(refs), func(at uint64, _ nats.Header, data []byte) error {
		for next < len(refs) && refs[next].end < at {
			next, joined = next+1, nil
		}
		if next == len(refs) || at < refs[next].at {
			return nil
		}
		if refs[next].pieced() {
			if joined = append(joined, data...); at < refs[next].end {
				return nil
			}
			data = joined
		}
		c, err := decodeCommit(data)
		if err != nil {
			return fmt.Errorf("journal: session %s commit %d: %w", sid, at, err)
		}
		return fn(c)
	})
}

// directGetRequest is JetStream's direct get API request, batched.
type directGetRequest struct {
	Seq      uint64 `json:"seq,omitempty"`
	NextFor  string `json:"next_by_subj,omitempty"`
	Batch    int    `json:"batch,omitempty"`
	MaxBytes int    `json:"max_bytes,omitempty"`
}

// maxBatch bounds the messages one direct get request asks for.
const maxBatch = 1024

// directRange calls fn for every message on subject with a stream
// sequence in [from, to], oldest first, through batched direct gets. A
// batch is not bounded by to: the first asks for want messages (what the
// caller expects in range), each next one four times more. The caller
// knows a message at to exists: a replica that has not caught up answers
// short, and the rest is asked for again.
func (j *jsJournal) directRange(ctx context.Context, subject string, from, to uint64, want int, fn func(at uint64, h nats.Header, data []byte) error) error {
	api := "$JS.API.DIRECT.GET." + j.names.stream
	batch := min(max(want, 1), maxBatch)
	for from <= to {
		req, _ := json.Marshal(directGetRequest{Seq: from, NextFor: subject, Batch: batch, MaxBytes: PageBytes * 4})
		batch = min(4*batch, maxBatch)
		sub, err := j.nc.SubscribeSync(j.nc.NewRespInbox())
		if err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, jsAttemptTimeout)
		next, err := j.readBatch(actx, sub, api, req, from, fn)
		cancel()
		_ = sub.Unsubscribe() // closing the connection drops it anyway
		if err != nil && (!errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil) {
			return err // an attempt that timed out is asked again
		}
		if next == from { // nothing new yet: a lagging replica answered
			select {
			case <-ctx.Done():
				return fmt.Errorf("journal: reading %s from %d: %w", subject, from, ctx.Err())
			case <-time.After(10 * time.Millisecond):
			}
		}
		from = next
	}
	return nil
}

// readBatch sends one direct get request and reads its answers until the
// end-of-batch marker; it returns the sequence to ask from next.
func (j *jsJournal) readBatch(ctx context.Context, sub *nats.Subscription, api string, req []byte, from uint64, fn func(uint64, nats.Header, []byte) error) (uint64, error) {
	if err := j.nc.PublishRequest(api, sub.Subject, req); err != nil {
		return from, err
	}
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return from, err
		}
		switch m.Header.Get("Status") {
		case "":
		case "204", "404": // end of batch; nothing (more) in range
			return from, nil
		case "503": // no responders: the stream elects a leader
			return from, context.DeadlineExceeded
		default:
			return from, fmt.Errorf("journal: direct get: %s %s", m.Header.Get("Status"), m.Header.Get("Description"))
		}
		at, err := strconv.ParseUint(m.Header.Get(jsSequenceHeader), 10, 64)
		if err != nil {
			return from, fmt.Errorf("journal: direct get answer without a sequence: %w", err)
		}
		if at < from {
			continue
		}
		if err := fn(at, m.Header, m.Data); err != nil {
			return from, err
		}
		from = at + 1
	}
}

const jsSequenceHeader = "Nats-Sequence"

func sortSessionRecords(recs []sessionRecord) {
	slices.SortFunc(recs, func(a, b sessionRecord) int {
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
}
