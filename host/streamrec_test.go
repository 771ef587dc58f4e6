package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/lookout-sh/lookout/model"
)

func TestStreamBufferJoinsRunsAndSealsAtDurableEvents(t *testing.T) {
	delta := func(item, field, text string) *model.Event {
		return &model.Event{ItemID: item, Field: field, Delta: text}
	}
	type step struct {
		seq  int64 // 0: a durable event (seal)
		item string
		text string
	}
	for _, tc := range []struct {
		name      string
		steps     []step
		completed []string
		want      string // seq:item:text records
	}{
		{"one run", []step{{1, "a", "he"}, {2, "a", "ll"}, {3, "a", "o"}}, nil, "3:a:hello"},
		{"two items alternate", []step{{1, "a", "x"}, {2, "b", "y"}, {3, "a", "z"}}, nil, "1:a:x 2:b:y 3:a:z"},
		{"a durable event splits a run", []step{{1, "a", "he"}, {0, "", ""}, {3, "a", "llo"}}, nil, "1:a:he 3:a:llo"},
		{"a completed item records nothing", []step{{1, "a", "x"}, {2, "b", "y"}}, []string{"a"}, "2:b:y"},
		{"a delta taken twice counts once", []step{{1, "a", "x"}, {1, "a", "x"}, {2, "a", "y"}}, nil, "2:a:xy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b streamBuffer
			for _, st := range tc.steps {
				if st.seq == 0 {
					b.seal()
					continue
				}
				b.add(st.seq, delta(st.item, "text", st.text))
			}
			var got []string
			for _, r := range b.records("S", tc.completed) {
				ev, err := model.DecodeNotification(model.MethodItemDelta, r.Params)
				if err != nil {
					t.Fatal(err)
				}
				if ev.Seq != r.Seq || ev.ItemID != r.ItemID {
					t.Fatalf("record %d/%s holds a delta at %d/%s", r.Seq, r.ItemID, ev.Seq, ev.ItemID)
				}
				got = append(got, fmt.Sprintf("%d:%s:%s", r.Seq, r.ItemID, ev.Delta))
			}
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("records %q, want %q", strings.Join(got, " "), tc.want)
			}
			b.clear()
			if len(b.records("S", nil)) != 0 {
				t.Fatal("a cleared buffer still holds records")
			}
		})
	}
}

// countingJournal counts a journal's commits and the bytes they carry.
type countingJournal struct {
	journal
	mu             gosync.Mutex
	commits, bytes int
}

func (j *countingJournal) append(sid string, evs []journalEvent, streamed []streamRecord, completed []string, lease int64) error {
	j.mu.Lock()
	j.commits++
	for _, e := range evs {
		j.bytes += len(e.Params)
	}
	for _, r := range streamed {
		j.bytes += len(r.Params)
	}
	j.mu.Unlock()
	return j.journal.append(sid, evs, streamed, completed, lease)
}

func (j *countingJournal) setLease(sid string, lease int64) error {
	j.mu.Lock()
	j.commits++
	j.mu.Unlock()
	return j.journal.setLease(sid, lease)
}

func (j *countingJournal) counts() (commits, bytes int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.commits, j.bytes
}

// streamedAnswer runs one turn of a durable host whose agent streams text
// in 10-byte deltas at rate (0: burst) and returns its journal's commits
// and bytes for the turn, and the size of the SQLite files after it.
func streamedAnswer(tb testing.TB, text string, rate float64) (commits, bytes int, files int64) {
	tb.Helper()
	dir := tb.TempDir()
	cj := &countingJournal{}
	h, err := Start(context.Background(), Options{
		Addr: "127.0.0.1:0", DataDir: dir, DemoSession: false, FieldBound: len(text) + 1,
		AgentImpl:   &StreamAgent{Text: text, Chunk: 10, Rate: rate},
		wrapJournal: func(j journal) journal { cj.journal = j; return cj },
	})
	if err != nil {
		tb.Fatal(err)
	}
	defer h.Close()
	s, err := h.createSession("stream")
	if err != nil {
		tb.Fatal(err)
	}
	c0, b0 := cj.counts()
	if _, rerr := s.submit("cmd-1", "stream it", "", false); rerr != nil {
		tb.Fatal(rerr)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s.mu.Lock()
		idle := s.state.Idle() && s.active == nil
		s.mu.Unlock()
		if idle {
			break
		}
		if time.Now().After(deadline) {
			tb.Fatal("the answer never completed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c1, b1 := cj.counts()
	for _, name := range []string{"journal.db", "journal.db-wal"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			files += fi.Size()
		}
	}
	return c1 - c0, b1 - b0, files
}

// A streamed answer is recorded in a few commits, not one per delta: its
// 20,000 deltas cost at most a commit per StreamRecordInterval plus the
// turn's durable events, and about the answer's size in bytes.
func TestStreamedAnswerCommitsAFewTimes(t *testing.T) {
	text := strings.Repeat("0123456789", 20_000)
	commits, bytes, _ := streamedAnswer(t, text, 4000) // 5 s
	if commits > 80 {
		t.Errorf("a 5 s answer took %d commits, want at most 80 (one per %v and the turn's events)", commits, StreamRecordInterval)
	}
	if bytes > 2*len(text)+64<<10 {
		t.Errorf("a %d-byte answer wrote %d bytes to the journal", len(text), bytes)
	}
	t.Logf("%d commits, %d bytes", commits, bytes)
}

// BenchmarkStreamedAnswerJournal streams shared/bench/longmd.md (200,555
// bytes in 20,056 deltas of 10) through a durable host with no subscriber,
// as fast as it goes and at 2,000 deltas a second, and reports the
// journal's commits and bytes for the answer and what the process wrote
// (/proc/self/io wchar: the SQLite files, nothing else writes).
//
//	go test ./host -run '^$' -bench StreamedAnswerJournal -benchtime 1x
func BenchmarkStreamedAnswerJournal(b *testing.B) {
	text := benchtext.Longmd(b)
	for _, mode := range []struct {
		name string
		rate float64
	}{{"burst", 0}, {"2000-per-s", 2000}} {
		b.Run(mode.name, func(b *testing.B) {
			for range b.N {
				w0 := procWritten(b)
				commits, bytes, files := streamedAnswer(b, text, mode.rate)
				b.ReportMetric(float64(commits), "commits")
				b.ReportMetric(float64(bytes)/(1<<20), "MB-journaled")
				b.ReportMetric(float64(procWritten(b)-w0)/(1<<20), "MB-written")
				b.ReportMetric(float64(files)/(1<<20), "MB-files")
			}
		})
	}
}

// procWritten is the bytes this process passed to write calls.
func procWritten(tb testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		tb.Skip("no /proc/self/io")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				tb.Fatalf("/proc/self/io wchar: %v", err)
			}
			return n
		}
	}
	return 0
}
