package host

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// digest is everything loading rebuilds of a session, as text.
func digest(t *testing.T, s *session) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d sent %d/%d recordedAt %q updatedAt %v\n", s.seq, s.sentSeq, s.sentDurable, s.recordedAt, s.updatedAt)
	fmt.Fprintf(&b, "positions %v\ndurables %v\n", s.positions, s.durables)
	var lines []string
	for id, q := range s.fullSeq {
		_, open := s.open[id]
		lines = append(lines, fmt.Sprintf("item %s %d %v", id, q, open))
	}
	for id, c := range s.commands {
		lines = append(lines, fmt.Sprintf("command %s %+v", id, *c))
	}
	for id, e := range s.turnEnds {
		lines = append(lines, fmt.Sprintf("turn %s %s %+v", id, e.status, e.err))
	}
	for id, d := range s.resolved {
		lines = append(lines, fmt.Sprintf("resolved %s %s", id, d))
	}
	slices.Sort(lines)
	b.WriteString(strings.Join(lines, "\n"))
	fmt.Fprintf(&b, "\nfold %s\n", s.state.Encode())
	return b.String()
}

// loadFresh starts a host on dir, loads sid and returns its digest. With
// withoutIndex the session's persisted index is removed first.
func loadFresh(t *testing.T, dir, sid string, withoutIndex bool) string {
	t.Helper()
	if withoutIndex {
		j, err := openTestJournal(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.setMeta(indexKey(sid), ""); err != nil {
			t.Fatal(err)
		}
		j.close()
	}
	h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.loadedSession(sid)
	if err != nil {
		t.Fatal(err)
	}
	return digest(t, s)
}

func readMeta(t *testing.T, dir, key string) string {
	t.Helper()
	j, err := openTestJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	v, err := j.meta(key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPersistedIndexLoadsWhatTheJournalGives: a session loaded with its
// persisted index is the session loaded from its whole journal, also when
// the journal grew after the index was written (as after a death).
func TestPersistedIndexLoadsWhatTheJournalGives(t *testing.T) {
	dir := t.TempDir()
	h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.createSession("indexed")
	if err != nil {
		t.Fatal(err)
	}
	for i, prompt := range demoHistoryPrompts {
		if _, rerr := s.submit(fmt.Sprint("cmd ", i), prompt, "", true); rerr != nil {
			t.Fatal(rerr)
		}
		if !s.waitIdle(time.Minute) {
			t.Fatal("a turn did not end")
		}
	}
	for range foldKeepItems + 100 {
		emitItem(t, s, model.MethodItemCompleted, model.StatusCompleted, 40)
	}
	emitItem(t, s, model.MethodItemStarted, model.StatusInProgress, 10) // open at the Close: stays open in the journal
	sid := s.id
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	first := readMeta(t, dir, indexKey(sid))
	if first == "" {
		t.Fatal("Close persisted no index")
	}

	withIndex := loadFresh(t, dir, sid, false) // recovers the open item, then persists again
	if readMeta(t, dir, indexKey(sid)) == first {
		t.Fatal("the index was not persisted again after the session grew")
	}
	// Put back the first index: the journal now holds more than it covers.
	j, err := openTestJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.setMeta(indexKey(sid), first); err != nil {
		t.Fatal(err)
	}
	j.close()
	withOldIndex := loadFresh(t, dir, sid, false)
	whole := loadFresh(t, dir, sid, true)
	if withOldIndex != whole {
		t.Fatalf("loaded with an index behind the journal:\n%s\nloaded from the whole journal:\n%s", withOldIndex, whole)
	}
	again := loadFresh(t, dir, sid, false) // the index Close wrote after the whole read
	if again != whole {
		t.Fatalf("loaded with a current index:\n%s\nloaded from the whole journal:\n%s", again, whole)
	}
	if !strings.Contains(withIndex, "hostDeath") {
		t.Fatal("the open item was not ended by the first restart")
	}
}

func TestDecodeIndex(t *testing.T) {
	good := indexFormat + " ep 9 2 2 1\n\"2026-01-02T03:04:05Z\"\n3 5 c a\n6 9 o b\n1 6\n8 2\n\"cmd \\\"1\\\"\" \"a\"\n"
	ix, err := decodeIndex(good)
	if err != nil {
		t.Fatal(err)
	}
	want := &persistedIndex{epoch: "ep", head: 9, recordedAt: "2026-01-02T03:04:05Z",
		positions: []posEntry{{3, "a"}, {6, "b"}}, fullSeq: []int64{5, 9}, open: []bool{false, true},
		durables: []int64{1, 2, 3, 4, 5, 6, 8, 9}, settled: [][2]string{{`cmd "1"`, "a"}}}
	if fmt.Sprint(ix) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", ix, want)
	}
	for _, tc := range []struct{ name, text string }{
		{"another format", strings.Replace(good, " 1 ", " 2 ", 1)},
		{"fewer items than counted", strings.Replace(good, "6 9 o b\n", "", 1)},
		{"an unknown item state", strings.Replace(good, " o b", " x b", 1)},
		{"a run of no seqs", strings.Replace(good, "8 2\n", "8 0\n", 1)},
		{"an unquoted command", strings.Replace(good, `"cmd \"1\"" "a"`, `cmd a`, 1)},
		{"trailing lines", good + "junk\n"},
		{"cut short", good[:len(good)-5]},
		{"empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeIndex(tc.text); err == nil {
				t.Fatal("decoded")
			}
		})
	}
}
