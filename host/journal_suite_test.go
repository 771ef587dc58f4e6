package host

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/internal/natstest"
)

// journalBackend opens one kind of journal for the suite; reopen closes j
// and opens the same store again (nil for a journal that keeps nothing).
type journalBackend struct {
	name   string
	open   func(t testing.TB) journal
	reopen func(t testing.TB, j journal) journal
}

func journalBackends() []journalBackend {
	return []journalBackend{
		{name: "memory", open: func(testing.TB) journal { return newMemJournal() }},
		{
			name: "sqlite",
			open: func(t testing.TB) journal {
				path := filepath.Join(t.TempDir(), "journal.db")
				j, err := openSQLiteJournal(path, false)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { j.close() })
				sqlitePaths[j] = path
				return j
			},
			reopen: func(t testing.TB, j journal) journal {
				path := sqlitePaths[j.(*sqliteJournal)]
				if err := j.close(); err != nil {
					t.Fatal(err)
				}
				n, err := openSQLiteJournal(path, false)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { n.close() })
				sqlitePaths[n] = path
				return n
			},
		},
		{
			name: "jetstream",
			open: func(t testing.TB) journal {
				node := natstest.Start(t, t.TempDir())
				return openJS(t, jetStreamConfig{URLs: node.URL(), Namespace: "suite"})
			},
			reopen: func(t testing.TB, j journal) journal {
				js := j.(*jsJournal)
				cfg := jetStreamConfig{URLs: js.nc.Servers()[0], Namespace: "suite"}
				if err := j.close(); err != nil {
					t.Fatal(err)
				}
				return openJS(t, cfg)
			},
		},
	}
}

var sqlitePaths = map[*sqliteJournal]string{}

func openJS(t testing.TB, cfg jetStreamConfig) *jsJournal {
	t.Helper()
	j, err := openJetStreamJournal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.close() })
	return j
}

func ev(seq int64) journalEvent {
	return journalEvent{Seq: seq, Method: "item/completed", Params: fmt.Appendf(nil, `{"seq":%d,"pad":"0123456789"}`, seq)}
}

func seqsOf(evs []journalEvent) []int64 {
	var out []int64
	for _, e := range evs {
		out = append(out, e.Seq)
	}
	return out
}

// fill appends seqs 1 2 3 5 8 13 21 in commits of one, two and four events.
func fill(t *testing.T, j journal, sid string) {
	t.Helper()
	for _, batch := range [][]int64{{1}, {2, 3}, {5, 8, 13, 21}} {
		var evs []journalEvent
		for _, s := range batch {
			evs = append(evs, ev(s))
		}
		if err := j.append(sid, evs, nil, nil, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestJournalSuite runs one table of behaviours over every journal.
func TestJournalSuite(t *testing.T) {
	for _, b := range journalBackends() {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range journalCases {
				t.Run(c.name, func(t *testing.T) {
					if c.durableOnly && b.reopen == nil {
						t.Skip("the memory journal keeps no deltas, leases or stores")
					}
					c.run(t, b, b.open(t))
				})
			}
		})
	}
}

var journalCases = []struct {
	name        string
	durableOnly bool
	run         func(t *testing.T, b journalBackend, j journal)
}{
	{name: "readAfter pages by limit and range", run: func(t *testing.T, _ journalBackend, j journal) {
		fill(t, j, "s1")
		for _, tc := range []struct {
			after, upto int64
			limit       int
			want        []int64
			more        bool
		}{
			{0, 100, 100, []int64{1, 2, 3, 5, 8, 13, 21}, false},
			{0, 100, 3, []int64{1, 2, 3}, true},
			{3, 100, 2, []int64{5, 8}, true},
			{4, 13, 100, []int64{5, 8, 13}, false},
			{4, 12, 2, []int64{5, 8}, false},
			{8, 100, 100, []int64{13, 21}, false},
			{21, 100, 100, nil, false},
			{0, 0, 100, nil, false},
		} {
			got, more, err := j.readAfter("s1", tc.after, tc.upto, tc.limit, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seqsOf(got), tc.want) || more != tc.more {
				t.Errorf("readAfter(%d, %d, %d) = %v more=%v, want %v more=%v", tc.after, tc.upto, tc.limit, seqsOf(got), more, tc.want, tc.more)
			}
		}
	}},
	{name: "readAfter bounds bytes but returns at least one", run: func(t *testing.T, _ journalBackend, j journal) {
		fill(t, j, "s1")
		size := len(ev(1).Params)
		got, more, err := j.readAfter("s1", 0, 100, 100, 1)
		if err != nil || !slices.Equal(seqsOf(got), []int64{1}) || !more {
			t.Fatalf("maxBytes 1: %v more=%v err=%v", seqsOf(got), more, err)
		}
		got, more, err = j.readAfter("s1", 2, 100, 100, 2*size)
		if err != nil || !slices.Equal(seqsOf(got), []int64{3, 5}) || !more {
			t.Fatalf("maxBytes two events: %v more=%v err=%v", seqsOf(got), more, err)
		}
		if string(got[1].Params) != string(ev(5).Params) || got[1].Method != "item/completed" {
			t.Fatalf("event 5 stored as %s %s", got[1].Method, got[1].Params)
		}
	}},
	{name: "readSeqs returns the named events in seq order", run: func(t *testing.T, _ journalBackend, j journal) {
		fill(t, j, "s1")
		got, err := j.readSeqs("s1", []int64{21, 1, 4, 8, 3})
		if err != nil || !slices.Equal(seqsOf(got), []int64{1, 3, 8, 21}) {
			t.Fatalf("readSeqs = %v, %v", seqsOf(got), err)
		}
		if got, err := j.readSeqs("other", []int64{1}); err != nil || len(got) != 0 {
			t.Fatalf("another session's seqs = %v, %v", seqsOf(got), err)
		}
	}},
	{name: "lastSeq and scan", run: func(t *testing.T, _ journalBackend, j journal) {
		if n, err := j.lastSeq("s1"); n != 0 || err != nil {
			t.Fatalf("lastSeq of an empty session = %d, %v", n, err)
		}
		fill(t, j, "s1")
		fill(t, j, "s2")
		if n, err := j.lastSeq("s1"); n != 21 || err != nil {
			t.Fatalf("lastSeq = %d, %v", n, err)
		}
		var seen []int64
		if err := j.scan("s1", func(e journalEvent) error { seen = append(seen, e.Seq); return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seen, []int64{1, 2, 3, 5, 8, 13, 21}) {
			t.Fatalf("scan saw %v", seen)
		}
		stop := errors.New("stop")
		n := 0
		if err := j.scan("s1", func(journalEvent) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Fatalf("scan stopped after %d with %v", n, err)
		}
	}},
	{name: "streams forget completed items and drop", durableOnly: true, run: func(t *testing.T, _ journalBackend, j journal) {
		rec := func(seq int64, item string) streamRecord {
			return streamRecord{Seq: seq, ItemID: item, Params: fmt.Appendf(nil, `{"d":%d}`, seq)}
		}
		if err := j.append("s1", []journalEvent{ev(1)}, []streamRecord{rec(2, "a"), rec(3, "b")}, nil, 0); err != nil {
			t.Fatal(err)
		}
		if err := j.append("s1", nil, []streamRecord{rec(4, "a"), rec(5, "c")}, nil, 0); err != nil {
			t.Fatal(err)
		}
		if err := j.append("s1", []journalEvent{ev(6)}, []streamRecord{rec(7, "b")}, []string{"a", "b"}, 0); err != nil {
			t.Fatal(err)
		}
		got, err := j.streams("s1")
		if err != nil || len(got) != 1 || got[0].Seq != 5 || got[0].ItemID != "c" || string(got[0].Params) != `{"d":5}` {
			t.Fatalf("streams = %+v, %v", got, err)
		}
		if err := j.dropStreams("s1"); err != nil {
			t.Fatal(err)
		}
		if got, err := j.streams("s1"); err != nil || len(got) != 0 {
			t.Fatalf("streams after drop = %+v, %v", got, err)
		}
		if err := j.append("s1", nil, []streamRecord{rec(8, "d")}, nil, 0); err != nil {
			t.Fatal(err)
		}
		if got, err := j.streams("s1"); err != nil || len(got) != 1 || got[0].Seq != 8 {
			t.Fatalf("streams after a new delta = %+v, %v", got, err)
		}
		if evs, _, err := j.readAfter("s1", 0, 100, 100, 1<<20); err != nil || !slices.Equal(seqsOf(evs), []int64{1, 6}) {
			t.Fatalf("events beside deltas = %v, %v", seqsOf(evs), err)
		}
	}},
	{name: "a big append reads back whole", durableOnly: true, run: func(t *testing.T, _ journalBackend, j journal) {
		pad := strings.Repeat("x", 1000)
		var evs []journalEvent
		var recs []streamRecord
		for i := int64(1); i <= 300; i++ {
			evs = append(evs, journalEvent{Seq: 2 * i, Method: "m", Params: fmt.Appendf(nil, `{"i":%d,"p":%q}`, i, pad)})
			recs = append(recs, streamRecord{Seq: 2*i + 1, ItemID: fmt.Sprint("it", i%3), Params: []byte(pad)})
		}
		if err := j.append("s1", evs, recs, []string{"it0"}, 1000); err != nil {
			t.Fatal(err)
		}
		got, more, err := j.readAfter("s1", 0, 1000, 1000, 1<<30)
		if err != nil || more || len(got) != 300 || !slices.EqualFunc(got, evs, func(a, b journalEvent) bool {
			return a.Seq == b.Seq && string(a.Params) == string(b.Params)
		}) {
			t.Fatalf("read %d events (more=%v, err %v)", len(got), more, err)
		}
		if got, _, err := j.readAfter("s1", 400, 1000, 10, 1<<30); err != nil || len(got) != 10 || got[0].Seq != 402 {
			t.Fatalf("page after 400 = %v, %v", seqsOf(got), err)
		}
		if got, err := j.readSeqs("s1", []int64{2, 300, 600}); err != nil || !slices.Equal(seqsOf(got), []int64{2, 300, 600}) {
			t.Fatalf("readSeqs = %v, %v", seqsOf(got), err)
		}
		st, err := j.streams("s1")
		if err != nil || len(st) != 200 || slices.ContainsFunc(st, func(r streamRecord) bool { return r.ItemID == "it0" }) {
			t.Fatalf("streams = %d records, %v", len(st), err)
		}
		if n, err := j.lastSeq("s1"); n != 600 || err != nil {
			t.Fatalf("lastSeq = %d, %v", n, err)
		}
	}},
	{name: "records bigger than a message read back whole, after a reopen too", durableOnly: true, run: func(t *testing.T, b journalBackend, j journal) {
		// An item/completed holding a whole 1 MiB answer of control
		// characters is 3 MiB of JSON: past NATS's default 1 MiB payload.
		big := func(seq int64, n int) journalEvent {
			return journalEvent{Seq: seq, Method: "item/completed", Params: fmt.Appendf(nil, `{"seq":%d,"text":%q}`, seq, strings.Repeat("\x01", n))}
		}
		for _, c := range [][]journalEvent{{ev(1)}, {big(2, 512<<10)}, {ev(3), big(4, 200<<10), ev(5)}, {ev(6)}} {
			if err := j.append("s1", c, nil, nil, 0); err != nil {
				t.Fatal(err)
			}
		}
		delta := streamRecord{Seq: 7, ItemID: "open", Params: []byte(strings.Repeat("d", 1500<<10))}
		if err := j.append("s1", nil, []streamRecord{delta}, nil, 0); err != nil {
			t.Fatal(err)
		}
		want := []journalEvent{ev(1), big(2, 512<<10), ev(3), big(4, 200<<10), ev(5), ev(6)}
		same := func(a, b journalEvent) bool {
			return a.Seq == b.Seq && a.Method == b.Method && string(a.Params) == string(b.Params)
		}
		for round := range 2 {
			if round == 1 {
				j = b.reopen(t, j)
			}
			got, more, err := j.readAfter("s1", 0, 100, 100, 1<<30)
			if err != nil || more || !slices.EqualFunc(got, want, same) {
				t.Fatalf("round %d: readAfter = %v (more %v), %v", round, seqsOf(got), more, err)
			}
			if got, _, err := j.readAfter("s1", 1, 100, 1, 1<<30); err != nil || len(got) != 1 || !same(got[0], want[1]) {
				t.Fatalf("round %d: a page of the big event alone = %v, %v", round, seqsOf(got), err)
			}
			if got, err := j.readSeqs("s1", []int64{4, 2, 6}); err != nil || !slices.EqualFunc(got, []journalEvent{want[1], want[3], want[5]}, same) {
				t.Fatalf("round %d: readSeqs = %v, %v", round, seqsOf(got), err)
			}
			var scanned []journalEvent
			if err := j.scan("s1", func(e journalEvent) error { scanned = append(scanned, e); return nil }); err != nil || !slices.EqualFunc(scanned, want, same) {
				t.Fatalf("round %d: scan = %v, %v", round, seqsOf(scanned), err)
			}
			if st, err := j.streams("s1"); err != nil || len(st) != 1 || string(st[0].Params) != string(delta.Params) {
				t.Fatalf("round %d: streams = %d records, %v", round, len(st), err)
			}
			if n, err := j.lastSeq("s1"); n != 6 || err != nil {
				t.Fatalf("round %d: lastSeq = %d, %v", round, n, err)
			}
		}
	}},
	{name: "rejections keep the first reason, oldest first, and forget", run: func(t *testing.T, _ journalBackend, j journal) {
		for _, r := range []rejection{{"c1", "empty"}, {"c2", "tooLong"}, {"c1", "other"}, {"c:3 x", "odd id"}} {
			if err := j.reject("s1", r.CommandID, r.Reason); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.reject("s2", "c1", "elsewhere"); err != nil {
			t.Fatal(err)
		}
		want := []rejection{{"c1", "empty"}, {"c2", "tooLong"}, {"c:3 x", "odd id"}}
		if got, err := j.rejections("s1"); err != nil || !slices.Equal(got, want) {
			t.Fatalf("rejections = %v, %v", got, err)
		}
		if err := j.forget("s1", []string{"c1", "unknown"}); err != nil {
			t.Fatal(err)
		}
		if got, err := j.rejections("s1"); err != nil || !slices.Equal(got, want[1:]) {
			t.Fatalf("after forget = %v, %v", got, err)
		}
		if got, err := j.rejections("s2"); err != nil || !slices.Equal(got, []rejection{{"c1", "elsewhere"}}) {
			t.Fatalf("s2 = %v, %v", got, err)
		}
	}},
	{name: "meta values", run: func(t *testing.T, _ journalBackend, j journal) {
		if v, err := j.meta("cleanShutdown"); v != "" || err != nil {
			t.Fatalf("unset meta = %q, %v", v, err)
		}
		for _, kv := range [][2]string{{"cleanShutdown", "{}"}, {"quiet:s-1", `{"a":1}`}, {"cleanShutdown", ""}} {
			if err := j.setMeta(kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		if v, err := j.meta("quiet:s-1"); v != `{"a":1}` || err != nil {
			t.Fatalf("quiet = %q, %v", v, err)
		}
		if v, err := j.meta("cleanShutdown"); v != "" || err != nil {
			t.Fatalf("overwritten = %q, %v", v, err)
		}
	}},
	{name: "sessions in creation order", run: func(t *testing.T, _ journalBackend, j journal) {
		recs := []sessionRecord{
			{ID: "s-b", Epoch: "e1", CreatedAt: "2026-01-01T00:00:00Z", Lease: 0},
			{ID: "s-a", Epoch: "e2", CreatedAt: "2026-01-02T00:00:00Z", Lease: 64},
		}
		for _, r := range recs {
			if err := j.createSession(r); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := j.sessions(); err != nil || !slices.Equal(got, recs) {
			t.Fatalf("sessions = %+v, %v", got, err)
		}
	}},
	{name: "leases only grow", durableOnly: true, run: func(t *testing.T, _ journalBackend, j journal) {
		if err := j.createSession(sessionRecord{ID: "s1", Epoch: "e", CreatedAt: "t", Lease: 64}); err != nil {
			t.Fatal(err)
		}
		if err := j.append("s1", []journalEvent{ev(1)}, nil, nil, 128); err != nil {
			t.Fatal(err)
		}
		if err := j.setLease("s1", 100); err != nil {
			t.Fatal(err)
		}
		if got, err := j.sessions(); err != nil || len(got) != 1 || got[0].Lease != 128 {
			t.Fatalf("lease after 128 then 100 = %+v, %v", got, err)
		}
		if err := j.setLease("s1", 192); err != nil {
			t.Fatal(err)
		}
		if got, err := j.sessions(); err != nil || got[0].Lease != 192 {
			t.Fatalf("lease after 192 = %+v, %v", got, err)
		}
	}},
	{name: "reopen keeps everything", durableOnly: true, run: func(t *testing.T, b journalBackend, j journal) {
		if err := j.createSession(sessionRecord{ID: "s1", Epoch: "e", CreatedAt: "t", Lease: 0}); err != nil {
			t.Fatal(err)
		}
		fill(t, j, "s1")
		steps := []error{
			j.append("s1", []journalEvent{ev(30)}, []streamRecord{{Seq: 31, ItemID: "x", Params: []byte(`{}`)}}, nil, 96),
			j.reject("s1", "c1", "empty"),
			j.setMeta("cleanShutdown", "yes"),
		}
		if err := errors.Join(steps...); err != nil {
			t.Fatal(err)
		}
		j = b.reopen(t, j)
		recs, err := j.sessions()
		if err != nil || len(recs) != 1 || recs[0].Lease != 96 {
			t.Fatalf("sessions = %+v, %v", recs, err)
		}
		evs, _, err := j.readAfter("s1", 0, 100, 100, 1<<20)
		if err != nil || !slices.Equal(seqsOf(evs), []int64{1, 2, 3, 5, 8, 13, 21, 30}) {
			t.Fatalf("events = %v, %v", seqsOf(evs), err)
		}
		if n, err := j.lastSeq("s1"); n != 30 || err != nil {
			t.Fatalf("lastSeq = %d, %v", n, err)
		}
		if st, err := j.streams("s1"); err != nil || len(st) != 1 || st[0].Seq != 31 {
			t.Fatalf("streams = %+v, %v", st, err)
		}
		if r, err := j.rejections("s1"); err != nil || len(r) != 1 {
			t.Fatalf("rejections = %v, %v", r, err)
		}
		if v, err := j.meta("cleanShutdown"); v != "yes" || err != nil {
			t.Fatalf("meta = %q, %v", v, err)
		}
		if err := j.append("s1", []journalEvent{ev(40)}, nil, nil, 0); err != nil {
			t.Fatalf("append after reopen: %v", err)
		}
	}},
}
