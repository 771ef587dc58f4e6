package host

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/natstest"
)

func TestJetStreamOneWriterPerSession(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	a := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "w"})
	b := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "w"})
	if err := a.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	// b claims the session after a's commit: b is the writer now.
	if err := b.claim("s1"); err != nil {
		t.Fatal(err)
	}
	if err := b.append("s1", []journalEvent{ev(2)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	err := a.append("s1", []journalEvent{ev(2)}, nil, nil, 0)
	if !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("a's append after b's claim: %v, want errJournalNotWriter", err)
	}
	// a sees b's event, and nothing of its refused append.
	evs, _, err := a.readAfter("s1", 0, 10, 10, 1<<20)
	if err != nil || !slices.Equal(seqsOf(evs), []int64{1, 2}) {
		t.Fatalf("a reads %v, %v", seqsOf(evs), err)
	}
	// Refused once, a stays fenced: having read the tail again it still
	// may not write after b (it used to, and two chains grew).
	for i := range 3 {
		if err := a.append("s1", []journalEvent{ev(int64(3 + i))}, nil, nil, 0); !errors.Is(err, errJournalNotWriter) {
			t.Fatalf("a's append %d after being fenced: %v", i, err)
		}
	}
	if err := b.append("s1", []journalEvent{ev(3)}, nil, nil, 0); err != nil {
		t.Fatalf("b's append after a's refused ones: %v", err)
	}
	// Only a claim makes a the writer again, and fences b.
	if err := a.claim("s1"); err != nil {
		t.Fatal(err)
	}
	if err := a.append("s1", []journalEvent{ev(4)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.append("s1", []journalEvent{ev(5)}, nil, nil, 0); !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("b's append after a's claim: %v", err)
	}
}

// Two writers that both expect the same last message must not both be
// told they stored their commit. With one message id per expected
// sequence (the old scheme), JetStream's dedupe answered the second
// writer "duplicate" with the first one's sequence before it checked the
// expected sequence, and both hosts went on writing.
func TestJetStreamTwoWritersExpectingOneMessage(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	a := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "d", HostID: "a"})
	b := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "d", HostID: "b"})
	if err := a.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	// Both publish a commit expecting a's first message, as a host
	// resuming from a pause and the host that took its session over did.
	ctx, cancel := a.opContext()
	defer cancel()
	expect := a.log("s1").tail.at
	c := commit{events: []journalEvent{ev(2)}}
	ref := commitRef{first: 2, last: 2, count: 1}
	if _, err := a.publishCommit(ctx, "s1", expect, c.encode(), ref, 2, 0); err != nil {
		t.Fatal(err)
	}
	_, err := b.publishCommit(ctx, "s1", expect, c.encode(), ref, 2, 0)
	if !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("b's commit expecting the message a already followed: %v, want errJournalNotWriter", err)
	}
	evs, _, err := b.readAfter("s1", 0, 10, 10, 1<<20)
	if err != nil || len(evs) != 2 {
		t.Fatalf("the journal holds %v, %v: want a's two events", seqsOf(evs), err)
	}
	if id1, id2 := commitMsgID("s1", a.writer, 1), commitMsgID("s1", b.writer, 1); id1 == id2 {
		t.Fatalf("two writers send the same message id %q", id1)
	}
}

func TestJetStreamReaderSeesOtherWriter(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	w := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "r"})
	r := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "r"})
	fill(t, w, "s1")
	if evs, _, err := r.readAfter("s1", 0, 100, 100, 1<<20); err != nil || len(evs) != 7 {
		t.Fatalf("reader saw %v, %v", seqsOf(evs), err)
	}
	if err := w.append("s1", []journalEvent{ev(34)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	if evs, err := r.readSeqs("s1", []int64{34}); err != nil || len(evs) != 1 {
		t.Fatalf("reader's readSeqs(34) = %v, %v", seqsOf(evs), err)
	}
}

func TestCommitCodec(t *testing.T) {
	full := commit{
		events:    []journalEvent{{Seq: 1, Method: "turn/started", Params: []byte(`{"a":1}`)}, {Seq: 300, Method: "x", Params: []byte{}}},
		streamed:  []streamRecord{{Seq: 2, ItemID: "it", Params: []byte(`{"d":"é"}`)}},
		completed: []string{"it", ""},
	}
	enc := full.encode()
	for _, tc := range []struct {
		name string
		body []byte
		ok   bool
	}{
		{"round trip", enc, true},
		{"empty commit", (&commit{}).encode(), true},
		{"no body", nil, false},
		{"unknown format", append([]byte{9}, enc[1:]...), false},
		{"cut short", enc[:len(enc)-3], false},
		{"trailing bytes", append(slices.Clone(enc), 0), false},
		{"huge count", []byte{commitFormat, 0xff, 0xff, 0xff, 0xff, 0x0f}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := decodeCommit(tc.body)
			if !tc.ok {
				if !errors.Is(err, errCommitCorrupt) {
					t.Fatalf("decode = %v, want errCommitCorrupt", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if again := c.encode(); !slices.Equal(again, tc.body) {
				t.Fatalf("re-encoded %x, stored %x", again, tc.body)
			}
		})
	}
}

func TestSubjectToken(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"s_0192-abc", "s_0192-abc"},
		{"quiet:s1", "=cXVpZXQ6czE"},
		{"a.b", "=YS5i"},
		{"=x", "=PXg"},
		{"", "="},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got := subjectToken(tc.in)
			if got != tc.want {
				t.Fatalf("subjectToken(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if back, err := tokenValue(got); err != nil || back != tc.in {
				t.Fatalf("tokenValue(%q) = %q, %v", got, back, err)
			}
		})
	}
}

// A writer that dies between the parts of a split commit leaves them
// unfinished: readers skip them, and the next writer appends after them.
func TestJetStreamUnfinishedSplitCommitIsSkipped(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	j := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "p"})
	fill(t, j, "s1") // up to seq 21
	l := j.log("s1")
	l.mu.Lock()
	ctx, cancel := j.opContext()
	at, err := j.publishCommit(ctx, "s1", l.tail.at, (&commit{events: []journalEvent{ev(22)}}).encode(),
		commitRef{first: 22, last: 22, part: 1, parts: 2}, 21, 0)
	cancel()
	l.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	r := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "p"})
	if n, err := r.lastSeq("s1"); err != nil || n != 21 {
		t.Fatalf("lastSeq over an unfinished commit = %d, %v", n, err)
	}
	if err := r.append("s1", []journalEvent{ev(22)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	evs, _, err := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "p"}).readAfter("s1", 0, 100, 100, 1<<20)
	if err != nil || !slices.Equal(seqsOf(evs), []int64{1, 2, 3, 5, 8, 13, 21, 22}) {
		t.Fatalf("events = %v, %v (unfinished part at stream seq %d)", seqsOf(evs), err, at)
	}
}

// A journal that already holds two writers' chains (written before
// commits were fenced) is read as one ascending chain: the commits whose
// seqs do not follow are skipped and reported, and paging never loops.
func TestJetStreamForkedJournalReadsOneChain(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	w := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "fk", HostID: "A"})
	ctx, cancel := w.opContext()
	defer cancel()
	// A's chain at seqs 2-3, then B's from 4098, then A's again at 4-5,
	// then B's 4099: each message expecting its predecessor, as the two
	// hosts' interleaved appends were stored.
	chain := []struct {
		writer string
		seqs   []int64
	}{{"A", []int64{2, 3}}, {"B", []int64{4098}}, {"A", []int64{4, 5}}, {"B", []int64{4099}}}
	var at uint64
	var high int64
	for _, c := range chain {
		evs := make([]journalEvent, len(c.seqs))
		for i, q := range c.seqs {
			evs[i] = ev(q)
		}
		high = max(high, c.seqs[len(c.seqs)-1])
		ref := commitRef{first: c.seqs[0], last: c.seqs[len(c.seqs)-1], count: int64(len(c.seqs)), writer: c.writer}
		var err error
		if at, err = w.publishCommit(ctx, "s1", at, (&commit{events: evs}).encode(), ref, c.seqs[len(c.seqs)-1], 8192); err != nil {
			t.Fatal(err)
		}
	}
	r := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "fk"})
	last, err := r.lastSeq("s1")
	if err != nil || last != 4099 {
		t.Fatalf("lastSeq = %d, %v; want 4099 (the kept chain's)", last, err)
	}
	var got []int64
	after := int64(0)
	for range 10 {
		evs, more, err := r.readAfter("s1", after, last, 2, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, seqsOf(evs)...)
		if len(evs) > 0 {
			after = evs[len(evs)-1].Seq
		}
		if !more {
			break
		}
	}
	if !slices.Equal(got, []int64{2, 3, 4098, 4099}) {
		t.Fatalf("read %v, want the one chain 2 3 4098 4099", got)
	}
	report := r.forks("s1")
	for _, want := range []string{"1 commits of a second writer skipped", "seqs 4-5, writer A", "writer B"} {
		if !strings.Contains(report, want) {
			t.Fatalf("fork report %q lacks %q", report, want)
		}
	}
}

// A journal whose host stepped down from a session (without ever being
// refused: its lease was taken) reads the new writer's commits: it no
// longer trusts the tail it wrote last. It used to, and served the
// session as a replica stuck at its own last commit.
func TestJetStreamFencedJournalReadsTheNewWriter(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	a := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "sd", HostID: "a"})
	b := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "sd", HostID: "b"})
	if err := a.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.claim("s1"); err != nil {
		t.Fatal(err)
	}
	if err := b.append("s1", []journalEvent{ev(2)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	a.fence("s1")
	last, err := a.lastSeq("s1")
	if err != nil || last != 2 {
		t.Fatalf("a's lastSeq after stepping down = %d, %v; want the new writer's 2", last, err)
	}
	evs, _, err := a.readAfter("s1", 0, last, 10, 1<<20)
	if err != nil || !slices.Equal(seqsOf(evs), []int64{1, 2}) {
		t.Fatalf("a reads %v, %v", seqsOf(evs), err)
	}
	if err := a.append("s1", []journalEvent{ev(3)}, nil, nil, 0); !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("a's append after stepping down: %v, want errJournalNotWriter", err)
	}
}

// A commit whose publish failed but was stored all the same (its answer
// was lost past the retries) is not appended twice, and does not fence
// its own writer: the next write finds its own message as the tail and
// appends only what it lacks.
func TestJetStreamCommitStoredDespiteAFailedPublish(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	j := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "un", HostID: "a"})
	if err := j.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	// The publish of ev 2 is stored, but the writer never hears so.
	l := j.log("s1")
	l.mu.Lock()
	ctx, cancel := j.opContext()
	_, err := j.publishCommit(ctx, "s1", l.tail.at, (&commit{events: []journalEvent{ev(2)}}).encode(), commitRef{first: 2, last: 2, count: 1, writer: j.writer}, 2, 0)
	cancel()
	l.uncertain = true
	l.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	// The flush retries the batch, with what was emitted since.
	if err := j.append("s1", []journalEvent{ev(2), ev(3)}, nil, nil, 0); err != nil {
		t.Fatalf("the retried append: %v", err)
	}
	r := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "un"})
	evs, _, err := r.readAfter("s1", 0, 10, 10, 1<<20)
	if err != nil || !slices.Equal(seqsOf(evs), []int64{1, 2, 3}) {
		t.Fatalf("the journal reads %v, %v; want 1 2 3 once each", seqsOf(evs), err)
	}
	if f := r.forks("s1"); f != "" {
		t.Fatalf("the retry forked the chain: %s", f)
	}
}

// A writer unsure of its last publish that finds another writer's claim
// as the tail is fenced: it never writes after it.
func TestJetStreamUncertainWriterFindsAClaim(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	a := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "uc", HostID: "a"})
	b := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "uc", HostID: "b"})
	if err := a.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	a.log("s1").uncertain = true
	if err := b.claim("s1"); err != nil {
		t.Fatal(err)
	}
	if err := a.append("s1", []journalEvent{ev(2)}, nil, nil, 0); !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("a's append after b's claim, unsure of its last publish: %v, want errJournalNotWriter", err)
	}
}

// A commit a ref names but the answering replica does not hold yet is
// asked for again until it arrives, not reported missing at once.
func TestJetStreamReadCommitWaitsForALaggingReplica(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	j := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "lag", HostID: "a"})
	if err := j.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	next := j.log("s1").tail.at + 1 // where the next commit will be stored
	done := make(chan error, 1)
	go func() {
		ctx, cancel := j.opContext()
		defer cancel()
		c, err := j.readCommit(ctx, "s1", commitRef{at: next, end: next})
		if err == nil && (len(c.events) != 1 || c.events[0].Seq != 2) {
			err = errors.New("read the wrong commit")
		}
		done <- err
	}()
	time.Sleep(300 * time.Millisecond) // the read has been refused at least once
	if err := j.append("s1", []journalEvent{ev(2)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("reading a commit stored late: %v", err)
	}
}
