package host

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/nats-io/nats.go"
)

// A commit is one journal append stored as one JetStream message on its
// session's subject: the events, the streamed deltas recorded for crash
// recovery and the items whose deltas it forgets. One message per append
// makes the append atomic without JetStream batches.
type commit struct {
	events    []journalEvent
	streamed  []streamRecord
	completed []string
}

// commitFormat is the first byte of every commit body (docs/fleet.md).
const commitFormat byte = 1

// Headers of a commit message. The cumulative ones (high, lease) make the
// subject's last message enough to resume a session's writer.
const (
	hdrFormat   = "Lookout-Format"
	hdrFirstSeq = "Lookout-Seq-First" // first event seq of this commit
	hdrLastSeq  = "Lookout-Seq-Last"  // last event seq of this commit
	hdrCount    = "Lookout-Events"    // how many events this commit holds
	hdrHighSeq  = "Lookout-Seq-High"  // the session's last event seq after it
	hdrLease    = "Lookout-Lease"     // the session's seq lease after it
	hdrStreams  = "Lookout-Streams"   // "1": records or forgets streamed deltas
	hdrDrop     = "Lookout-Drop"      // "1": forgets every streamed delta before it
	hdrPart     = "Lookout-Part"      // i of a commit split in Lookout-Parts messages
	hdrParts    = "Lookout-Parts"
	hdrPiece    = "Lookout-Piece"  // k of a part stored in Lookout-Pieces messages
	hdrPieces   = "Lookout-Pieces" // (journal_jetstream_pieces.go)
	hdrWriter   = "Lookout-Writer" // the writing journal: host id (fleet) and a tag of its run
	hdrClaim    = "Lookout-Claim"  // "1": a writer takes the session over here
)

var errCommitCorrupt = errors.New("journal: corrupt commit record")

// split cuts c into commits of about maxBytes each (at least one record
// each): events, then streamed deltas, with the completed items in the
// last, so that its forgetting follows every record as in one commit.
func (c commit) split(maxBytes int) []commit {
	var parts []commit
	cur, size := commit{}, 0
	cut := func(n int) {
		if size > 0 && size+n > maxBytes {
			parts = append(parts, cur)
			cur, size = commit{}, 0
		}
		size += n
	}
	for _, e := range c.events {
		cut(recordOverhead + len(e.Method) + len(e.Params))
		cur.events = append(cur.events, e)
	}
	for _, r := range c.streamed {
		cut(recordOverhead + len(r.ItemID) + len(r.Params))
		cur.streamed = append(cur.streamed, r)
	}
	cur.completed = c.completed
	return append(parts, cur)
}

// recordOverhead bounds the varints around one record.
const recordOverhead = 3 * binary.MaxVarintLen64

func (c *commit) encode() []byte {
	n := 16
	for _, e := range c.events {
		n += 3*binary.MaxVarintLen64 + len(e.Method) + len(e.Params)
	}
	for _, r := range c.streamed {
		n += 3*binary.MaxVarintLen64 + len(r.ItemID) + len(r.Params)
	}
	for _, id := range c.completed {
		n += binary.MaxVarintLen64 + len(id)
	}
	b := make([]byte, 0, n)
	b = append(b, commitFormat)
	b = binary.AppendUvarint(b, uint64(len(c.events)))
	for _, e := range c.events {
		b = binary.AppendUvarint(b, uint64(e.Seq))
		b = appendBytes(b, []byte(e.Method))
		b = appendBytes(b, e.Params)
	}
	b = binary.AppendUvarint(b, uint64(len(c.streamed)))
	for _, r := range c.streamed {
		b = binary.AppendUvarint(b, uint64(r.Seq))
		b = appendBytes(b, []byte(r.ItemID))
		b = appendBytes(b, r.Params)
	}
	b = binary.AppendUvarint(b, uint64(len(c.completed)))
	for _, id := range c.completed {
		b = appendBytes(b, []byte(id))
	}
	return b
}

func appendBytes(b, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// commitReader decodes a commit body; the first error sticks.
type commitReader struct {
	b   []byte
	err error
}

func (r *commitReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCommitCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *commitReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errCommitCorrupt
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// count reads a record count, bounded by the bytes left (each record takes
// at least one byte), so a corrupt count cannot allocate without bound.
func (r *commitReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errCommitCorrupt
		return 0
	}
	return int(n)
}

func decodeCommit(b []byte) (commit, error) {
	var c commit
	if len(b) == 0 || b[0] != commitFormat {
		return c, fmt.Errorf("%w: unknown format", errCommitCorrupt)
	}
	r := &commitReader{b: b[1:]}
	if n := r.count(); n > 0 {
		c.events = make([]journalEvent, 0, n)
		for range n {
			c.events = append(c.events, journalEvent{Seq: int64(r.uvarint()), Method: string(r.bytes()), Params: r.bytes()})
		}
	}
	if n := r.count(); n > 0 {
		c.streamed = make([]streamRecord, 0, n)
		for range n {
			c.streamed = append(c.streamed, streamRecord{Seq: int64(r.uvarint()), ItemID: string(r.bytes()), Params: r.bytes()})
		}
	}
	for n := r.count(); n > 0; n-- {
		c.completed = append(c.completed, string(r.bytes()))
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errCommitCorrupt
	}
	return c, r.err
}

// commitRef is what a journal remembers of one commit to find events
// without reading the session's log: its stream sequence, the range of
// Lookout seqs it holds, and whether it touches streamed deltas.
type commitRef struct {
	at            uint64 // stream sequence
	end           uint64 // stream sequence of its last piece; at for one message
	first, last   int64  // event seqs; 0 when the commit holds none
	count         int64  // events it holds
	streams, drop bool
	part, parts   int    // of a split commit; 0 when it is one message
	piece, pieces int    // of a part stored in pieces; 0 when it is whole
	writer        string // Lookout-Writer; "" in journals that predate it
	claim         bool
}

// tailState is what the last commit of a session says about it.
type tailState struct {
	at          uint64 // stream sequence of the subject's last message (0: none)
	high, lease int64
}

// refOf reads a commit's headers.
func refOf(at uint64, h nats.Header) (commitRef, tailState, error) {
	ref := commitRef{at: at, end: at, streams: h.Get(hdrStreams) == "1", drop: h.Get(hdrDrop) == "1",
		writer: h.Get(hdrWriter), claim: h.Get(hdrClaim) == "1"}
	t := tailState{at: at}
	var err error
	num := func(key string) int64 {
		v := h.Get(key)
		if v == "" || err != nil {
			return 0
		}
		n, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil || n < 0 {
			err = fmt.Errorf("%w: header %s=%q", errCommitCorrupt, key, v)
		}
		return n
	}
	ref.first, ref.last, ref.count = num(hdrFirstSeq), num(hdrLastSeq), num(hdrCount)
	if ref.last > 0 {
		ref.count = max(ref.count, 1)
	}
	ref.part, ref.parts = int(num(hdrPart)), int(num(hdrParts))
	ref.piece, ref.pieces = int(num(hdrPiece)), int(num(hdrPieces))
	t.high, t.lease = num(hdrHighSeq), num(hdrLease)
	return ref, t, err
}

// subjectToken is sid as one subject token (and KV key): itself when it
// is made of letters, digits, '-' and '_' (every id a host mints), else
// "=" and its unpadded base64url, which cannot collide with a plain one.
func subjectToken(s string) string {
	if plainToken.MatchString(s) {
		return s
	}
	return "=" + b64.EncodeToString([]byte(s))
}

var plainToken = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tokenValue inverts subjectToken.
func tokenValue(tok string) (string, error) {
	if len(tok) == 0 || tok[0] != '=' {
		return tok, nil
	}
	b, err := b64.DecodeString(tok[1:])
	if err != nil {
		return "", fmt.Errorf("%w: key %q", errCommitCorrupt, tok)
	}
	return string(b), nil
}
