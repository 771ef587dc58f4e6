package host

import (
	"errors"
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/internal/natstest"
)

func TestJetStreamOneWriterPerSession(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	a := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "w"})
	b := openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "w"})
	if err := a.append("s1", []journalEvent{ev(1)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	// b reads the tail a left and appends after it: b is the writer now.
	if err := b.append("s1", []journalEvent{ev(2)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	err := a.append("s1", []journalEvent{ev(2)}, nil, nil, 0)
	if !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("a's append after b's: %v, want errJournalNotWriter", err)
	}
	// a sees b's event, and nothing of its refused append.
	evs, _, err := a.readAfter("s1", 0, 10, 10, 1<<20)
	if err != nil || !slices.Equal(seqsOf(evs), []int64{1, 2}) {
		t.Fatalf("a reads %v, %v", seqsOf(evs), err)
	}
	// Having read the tail again, a may write once more.
	if err := a.append("s1", []journalEvent{ev(3)}, nil, nil, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.append("s1", []journalEvent{ev(4)}, nil, nil, 0); !errors.Is(err, errJournalNotWriter) {
		t.Fatalf("b's append after a's: %v", err)
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
	ctx, cancel := opContext()
	at, err := j.publishCommit(ctx, "s1", l.tail.at, commit{events: []journalEvent{ev(22)}},
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
