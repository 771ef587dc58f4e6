package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lookout-sh/lookout/internal/jsretry"
)

// jsPartBytes is the most record bytes one commit message holds: a bigger
// append is split (Lookout-Part i of Lookout-Parts), and a record bigger
// than it is stored in pieces (journal_jetstream_pieces.go), which keeps
// messages under NATS's payload limit and a page read from reading much
// more than the page.
const jsPartBytes = 128 << 10

func (j *jsJournal) append(sid string, evs []journalEvent, streamed []streamRecord, completed []string, lease int64) error {
	return j.write(sid, commit{events: evs, streamed: streamed, completed: completed}, lease, commitMarks{})
}

func (j *jsJournal) setLease(sid string, lease int64) error {
	return j.write(sid, commit{}, lease, commitMarks{})
}

// commitMarks are a commit's flags beyond its records.
type commitMarks struct {
	drop  bool // forget every recorded delta before it
	claim bool // this journal takes the session over from whoever wrote it
}

// claim makes this journal the session's writer: it appends an empty
// commit marked Lookout-Claim after the subject's last message as read
// now. From then on JetStream refuses every other journal's append that
// expects an earlier message, whatever that journal believes: it has
// been fenced. Reads that follow see everything committed before the
// claim. A claim raced by another append reads the tail again.
func (j *jsJournal) claim(sid string) error {
	l := j.log(sid)
	var err error
	for range 5 {
		l.mu.Lock()
		l.owned, l.known, l.fenced, l.uncertain = false, false, false, false
		l.mu.Unlock()
		if err = j.write(sid, commit{}, 0, commitMarks{claim: true}); !errors.Is(err, errJournalNotWriter) {
			return err
		}
	}
	return err
}

// errCommitUncertain: a publish's outcome is unknown (it may have been
// stored); the commit is retried by the caller.
var errCommitUncertain = errors.New("journal: a commit's outcome is unknown")

// resolveUncertain learns what became of the last publish that failed:
// the subject's last message is the one this journal knew (nothing was
// stored), one of its own (stored after all: it is the tail now), or
// another writer's (this journal was fenced meanwhile). The caller holds
// l.mu.
func (j *jsJournal) resolveUncertain(ctx context.Context, sid string, l *sessionLog) error {
	m, err := j.lastMessage(ctx, sid)
	if err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
		return err
	}
	switch {
	case err != nil || m.Sequence == l.tail.at:
	case m.Header.Get(hdrWriter) == j.writer:
		_, t, err := refOf(m.Sequence, m.Header)
		if err != nil {
			return err
		}
		l.advanceTail(t)
	default:
		l.owned, l.fenced = false, true
		return fmt.Errorf("%w (session %s: %s wrote after this journal's last commit)", errJournalNotWriter, sid, writerName(m.Header.Get(hdrWriter)))
	}
	l.uncertain = false
	return nil
}

// fence marks this journal no longer sid's writer (its host stepped
// down): it appends nothing more until it claims the session again, and
// reads ask the server for the tail, which another writer moves now.
func (j *jsJournal) fence(sid string) {
	l := j.log(sid)
	l.mu.Lock()
	l.owned, l.fenced = false, true
	l.mu.Unlock()
}

// write publishes a commit on sid's subject, each message expecting the
// last sequence this journal knows there. A retried publish carries the
// same message id, so JetStream stores it once. Once JetStream refused
// one of its appends the session's log is fenced: the journal never
// reads the tail again to write after another writer (only claim does).
func (j *jsJournal) write(sid string, c commit, lease int64, marks commitMarks) error {
	ctx, cancel := j.opContext()
	defer cancel()
	l := j.log(sid)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fenced {
		return fmt.Errorf("%w (session %s)", errJournalNotWriter, sid)
	}
	if l.uncertain {
		if err := j.resolveUncertain(ctx, sid, l); err != nil {
			return err
		}
	}
	if err := j.syncTail(ctx, sid, l); err != nil {
		return err
	}
	before := l.tail
	// A commit whose publish failed may have been stored all the same:
	// its events are not appended twice.
	c.events = slices.DeleteFunc(slices.Clone(c.events), func(e journalEvent) bool { return e.Seq <= before.high })
	lease = max(before.lease, lease)
	if len(c.events)+len(c.streamed)+len(c.completed) == 0 && marks == (commitMarks{}) && lease == before.lease {
		return nil // nothing to store (or stored already)
	}
	budget := min(jsPartBytes, int(j.nc.MaxPayload())/2)
	msgs := commitMessages(c.split(budget), budget)
	for i, m := range msgs {
		ref := commitRef{drop: marks.drop, claim: marks.claim, writer: j.writer, piece: m.piece, pieces: m.pieces}
		if len(msgs) > 1 {
			ref.part, ref.parts = i+1, len(msgs)
		}
		if p := m.part; m.ends {
			ref.streams = len(p.streamed)+len(p.completed) > 0
			if n := len(p.events); n > 0 {
				ref.first, ref.last, ref.count = p.events[0].Seq, p.events[n-1].Seq, int64(n)
			}
		}
		high := before.high
		if i == len(msgs)-1 && len(c.events) > 0 {
			high = max(high, c.events[len(c.events)-1].Seq)
		}
		at, err := j.publishCommit(ctx, sid, l.tail.at, m.body, ref, high, lease)
		if err != nil {
			if errors.Is(err, errJournalNotWriter) {
				l.owned, l.fenced = false, true
			} else {
				l.uncertain = true // stored or not: the next write asks
			}
			return err
		}
		ref.at, ref.end = at, at
		if l.refsTo == l.tail.at {
			l.index(ref) // the refs stay complete
		}
		// Until the last part, the session's high seq stays what it was.
		l.tail, l.owned = tailState{at: at, high: high, lease: lease}, true
	}
	return nil
}

// publishCommit sends one commit message, body (an encoded commit or a
// piece of one), after the subject's message at expect and returns its
// stream sequence.
func (j *jsJournal) publishCommit(ctx context.Context, sid string, expect uint64, body []byte, ref commitRef, high, lease int64) (uint64, error) {
	msg := nats.NewMsg(j.subject(sid))
	msg.Header.Set(hdrFormat, strconv.Itoa(int(commitFormat)))
	if ref.last > 0 {
		msg.Header.Set(hdrFirstSeq, strconv.FormatInt(ref.first, 10))
		msg.Header.Set(hdrLastSeq, strconv.FormatInt(ref.last, 10))
		msg.Header.Set(hdrCount, strconv.FormatInt(ref.count, 10))
	}
	msg.Header.Set(hdrHighSeq, strconv.FormatInt(high, 10))
	msg.Header.Set(hdrLease, strconv.FormatInt(lease, 10))
	if ref.streams {
		msg.Header.Set(hdrStreams, "1")
	}
	if ref.drop {
		msg.Header.Set(hdrDrop, "1")
	}
	if ref.parts > 1 {
		msg.Header.Set(hdrPart, strconv.Itoa(ref.part))
		msg.Header.Set(hdrParts, strconv.Itoa(ref.parts))
	}
	if ref.pieces > 1 {
		msg.Header.Set(hdrPiece, strconv.Itoa(ref.piece))
		msg.Header.Set(hdrPieces, strconv.Itoa(ref.pieces))
	}
	if ref.writer != "" {
		msg.Header.Set(hdrWriter, ref.writer)
	}
	if ref.claim {
		msg.Header.Set(hdrClaim, "1")
	}
	msg.Data = body
	// The id is this writer's own: JetStream deduplicates by id before it
	// checks the expected sequence, so two writers expecting the same
	// message with one id would each be told their commit was stored.
	id := commitMsgID(sid, j.writer, expect)
	retried := false
	for {
		actx, cancel := context.WithTimeout(ctx, jsAttemptTimeout)
		ack, err := j.js.PublishMsg(actx, msg, jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(expect))
		cancel()
		if err == nil && ack.Duplicate && !retried {
			// Only this writer sends this id: an earlier write whose
			// publish failed was stored after all. Its outcome is
			// resolved by the next write (resolveUncertain).
			return 0, fmt.Errorf("%w: message id %s was stored at %d by an earlier attempt", errCommitUncertain, id, ack.Sequence)
		}
		if err == nil {
			return ack.Sequence, nil
		}
		if !retried && isWrongLastSeq(err) {
			return 0, fmt.Errorf("%w: %v", errJournalNotWriter, err) //nolint:errorlint // the refusal is the contract; its cause must not match isWrongLastSeq upstream
		}
		if isBusy(err) {
			// The stream's leader is still applying this subject's previous
			// commit: ask again.
			err = nats.ErrTimeout
		} else if retried && isWrongLastSeq(err) {
			// An attempt whose answer was lost may have been stored: a new
			// leader need not know its id yet.
			if at, ok := j.storedAfter(ctx, msg.Subject, expect, id); ok {
				return at, nil
			}
		}
		if isWrongLastSeq(err) {
			return 0, fmt.Errorf("%w: %v", errJournalNotWriter, err) //nolint:errorlint // the refusal is the contract; its cause must not match isWrongLastSeq upstream
		}
		if !retryable(err) || ctx.Err() != nil {
			return 0, err
		}
		retried = true
		// A cluster electing a leader answers nothing for a moment.
		select {
		case <-ctx.Done():
			return 0, err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// storedAfter reports whether the subject's message after expect is the
// one with message id id, and its sequence. A replica that has not caught
// up may answer the lookup: it is asked again for a while.
func (j *jsJournal) storedAfter(ctx context.Context, subject string, expect uint64, id string) (uint64, bool) {
	for range 20 {
		m, err := j.stream.GetMsg(ctx, expect+1, jetstream.WithGetMsgSubject(subject))
		if err == nil {
			return m.Sequence, m.Header.Get(jetstream.MsgIDHeader) == id
		}
		select {
		case <-ctx.Done():
			return 0, false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return 0, false
}

// jsAttemptTimeout bounds one request (jsretry.Attempt).
const jsAttemptTimeout = jsretry.Attempt

// retrying runs op until it succeeds, fails for good or ctx ends
// (jsretry.Do); a replica not caught up yet counts as passing too.
func retrying(ctx context.Context, op func(context.Context) error) error {
	return jsretry.Do(ctx, retryable, op)
}

func retryable(err error) bool { return jsretry.Transient(err) || errors.Is(err, errReplicaLag) }

// isWrongLastSeq: the subject's last message is not the one expected.
func isWrongLastSeq(err error) bool {
	return hasAPICode(err, jetstream.JSErrCodeStreamWrongLastSequence)
}

// isBusy: a replicated stream refuses an expected-sequence check while a
// message on the subject is in flight; the check has not failed yet.
func isBusy(err error) bool {
	return hasAPICode(err, jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

func hasAPICode(err error, code jetstream.ErrorCode) bool { return jsretry.HasCode(err, code) }

// commitMsgID is the Nats-Msg-Id of writer's commit after the subject's
// message at expect.
func commitMsgID(sid, writer string, expect uint64) string {
	return subjectToken(sid) + ":" + writer + ":" + strconv.FormatUint(expect, 10)
}
