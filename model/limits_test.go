package model

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func clientBoundDiagnostics(s *State) []FoldError {
	var out []FoldError
	for _, d := range s.TakeDiagnostics() {
		if d.Reason == ClientBound {
			out = append(out, d)
		}
	}
	return out
}

// A host that streams more into one field than the client's bound: the
// field stops growing at the bound (cut on a UTF-8 boundary), the item is
// marked cut for display, the cut is reported once as a typed diagnostic,
// and the canonical encoding carries no trace of the display mark.
func TestLimitFieldStopsGrowingAtTheBound(t *testing.T) {
	const bound = 1 << 20
	s := NewState(sid)
	s.SetLimits(Limits{FieldBytes: bound})
	mustApply(t, s, frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)))
	chunk := strings.Repeat("é", 2000) + "!" // 4001 bytes: the bound falls inside a rune
	seq := int64(1)
	for sent := 0; sent < 54<<20; sent += len(chunk) {
		seq++
		if err := s.Apply(&Event{Method: MethodItemDelta, SessionID: sid, Seq: seq, ItemID: "m", Field: "text", Delta: chunk}); err != nil {
			t.Fatal(err)
		}
	}
	it := s.Item("m")
	text := it.Text()
	if len(text) > bound || len(text) < bound-3 || !utf8.ValidString(text) {
		t.Fatalf("text is %d bytes (valid UTF-8: %v), want at most %d, cut on a rune boundary", len(text), utf8.ValidString(text), bound)
	}
	if it.Cut == nil || len(it.Cut.Fields) != 1 || it.Cut.Fields[0] != "text" || it.Cut.FieldBound != bound || it.Cut.ItemBound != 0 {
		t.Fatalf("cut mark %+v", it.Cut)
	}
	d := clientBoundDiagnostics(s)
	if len(d) != 1 || d[0].ItemID != "m" || d[0].Field != "text" {
		t.Fatalf("diagnostics %+v, want one client_bound for m text", d)
	}
	if s.Cursor != seq {
		t.Fatalf("cursor %d, want %d: a cut delta is still folded", s.Cursor, seq)
	}
	// Past the cut, the stream changes nothing: no new version to render.
	v := s.View()
	seq++
	if err := s.Apply(&Event{Method: MethodItemDelta, SessionID: sid, Seq: seq, ItemID: "m", Field: "text", Delta: chunk}); err != nil {
		t.Fatal(err)
	}
	if s.Item("m") != v.ItemByID("m") || s.Item("m").Version != it.Version {
		t.Fatal("a dropped delta changed the item")
	}
	if enc := s.Encode(); bytes.Contains(enc, []byte("cut")) || len(enc) > bound+2000 {
		t.Fatalf("canonical encoding carries the display mark or more than the bound (%d bytes)", len(enc))
	}
	// Other fields of the item still grow; the next full object restates
	// the item and wins, the mark with it.
	mustApply(t, s, frame(MethodItemDelta, seq+1, -1, delta("m", "note", "more")))
	if s.Item("m").String("note") != "more" {
		t.Fatal("another field stopped growing too")
	}
	mustApply(t, s, frame(MethodItemCompleted, seq+2, 1, item("m", KindAgentMessage, 2, "completed", `"text":"short"`)))
	if it := s.Item("m"); it.Cut != nil || it.Text() != "short" {
		t.Fatalf("after a full object: cut %+v, text %q", it.Cut, it.Text())
	}
}

// A host that spreads its stream over new array elements (each under the
// field bound) is stopped by the item bound; creating elements counts.
func TestLimitItemBoundStopsEveryField(t *testing.T) {
	const itemBound = 64 << 10
	s := NewState(sid)
	s.SetLimits(Limits{FieldBytes: 1 << 20, ItemBytes: itemBound})
	mustApply(t, s, frame(MethodItemStarted, 1, 0, item("r", KindReasoning, 1, "inProgress", `"summary":[]`)))
	for i := range 20_000 {
		ev := &Event{Method: MethodItemDelta, SessionID: sid, Seq: int64(i + 2), ItemID: "r", Field: fmt.Sprintf("summary.%d", i), Delta: "x"}
		if err := s.Apply(ev); err != nil {
			t.Fatalf("delta %d: %v", i, err)
		}
	}
	it := s.Item("r")
	if n := len(it.Summary()); n == 0 || n > itemBound/newValueCost {
		t.Fatalf("%d summary parts held", n)
	}
	if it.held > itemBound+2*newValueCost {
		t.Fatalf("item holds %d bytes, bound %d", it.held, itemBound)
	}
	if it.Cut == nil || it.Cut.ItemBound != itemBound {
		t.Fatalf("cut mark %+v", it.Cut)
	}
	if d := clientBoundDiagnostics(s); len(d) != 1 {
		t.Fatalf("diagnostics %+v, want one", d)
	}
}

// A full object whose strings pass the field bound (a frame may carry up
// to 4 MiB) is cut too, nested strings included.
func TestLimitFullObjectIsCut(t *testing.T) {
	s := NewState(sid)
	s.SetLimits(Limits{FieldBytes: 1000})
	long := strings.Repeat("日本", 1000) // 6000 bytes
	mustApply(t, s, frame(MethodItemCompleted, 1, 0, item("r", KindReasoning, 1, "completed",
		fmt.Sprintf(`"summary":["short",%q],"text":%q,"meta":{"n":1}`, long, long))))
	it := s.Item("r")
	if got := it.Summary(); len(got) != 2 || got[0] != "short" || len(got[1]) > 1000 || len(got[1]) < 997 || !utf8.ValidString(got[1]) {
		t.Fatalf("summary %d parts, second %d bytes", len(got), len(got[1]))
	}
	if len(it.Text()) > 1000 {
		t.Fatalf("text %d bytes", len(it.Text()))
	}
	if it.Cut == nil || strings.Join(it.Cut.Fields, ",") != "summary.1,text" {
		t.Fatalf("cut mark %+v", it.Cut)
	}
	if d := clientBoundDiagnostics(s); len(d) != 1 || d[0].ItemID != "r" {
		t.Fatalf("diagnostics %+v", d)
	}
	if n, ok := it.Int("meta.n"); !ok || n != 1 {
		t.Fatal("other members changed")
	}
	// An item within the bound is held whole and unmarked.
	mustApply(t, s, frame(MethodItemCompleted, 2, 1, item("a", KindAgentMessage, 1, "completed", `"text":"fine"`)))
	if s.Item("a").Cut != nil {
		t.Fatal("an item within the bound is marked cut")
	}
}

func completedItems(from, to int, text string) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, frame(MethodItemCompleted, int64(i), int64(i-1), item(fmt.Sprintf("i%06d", i), KindAgentMessage, 1, "completed", fmt.Sprintf(`"text":%q`, text))))
	}
	return out
}

// Past the item bound the oldest items are dropped: the held range is a
// tail with older history on the host (HasOlder), a View published before
// keeps its items, an event for a dropped item does not punch a hole into
// the held range, and a history page can bring dropped items back.
func TestLimitItemsDropsTheOldest(t *testing.T) {
	s := NewState(sid)
	s.SetLimits(Limits{Items: 160})
	frames := completedItems(1, 1000, "hello")
	var before *View
	for i, f := range frames {
		mustApply(t, s, f)
		if i == 149 {
			before = s.View()
		}
	}
	if s.Len() > 160 || s.Len() < 150 {
		t.Fatalf("holds %d items, bound 160", s.Len())
	}
	if !s.HasOlder || s.Dropped() != 1000-s.Len() {
		t.Fatalf("hasOlder %v, dropped %d of 1000 with %d held", s.HasOlder, s.Dropped(), s.Len())
	}
	if s.Items()[s.Len()-1].ID != "i001000" {
		t.Fatal("the newest item is not held")
	}
	if len(before.Items) != 150 || before.Items[0].ID != "i000001" {
		t.Fatalf("a published View changed: %d items from %s", len(before.Items), before.Items[0].ID)
	}
	oldest := s.OldestPosition()
	// A full object for a dropped item: left out, no hole.
	mustApply(t, s, frame(MethodItemCompleted, 1001, 1000, item("i000005", KindAgentMessage, 2, "completed", `"text":"late","position":5`)))
	if s.Item("i000005") != nil || s.OldestPosition() != oldest {
		t.Fatal("an update of a dropped item was put before the held range")
	}
	// The history page the user asks for is held, past the bound.
	ev, err := DecodeFrame([]byte(frame(MethodItemCompleted, oldest-1, oldest-2, item(fmt.Sprintf("i%06d", oldest-1), KindAgentMessage, 1, "completed", `"text":"paged back"`))))
	if err != nil {
		t.Fatal(err)
	}
	n := s.Len()
	if err := s.ApplyOlder([]*Event{ev}, true); err != nil || s.Len() != n+1 || s.OldestPosition() != oldest-1 {
		t.Fatalf("history page: %v, %d items, oldest %d", err, s.Len(), s.OldestPosition())
	}
}

// The byte bound drops the oldest items too.
func TestLimitBytesDropsTheOldest(t *testing.T) {
	s := NewState(sid)
	s.SetLimits(Limits{Bytes: 1 << 20})
	for _, f := range completedItems(1, 500, strings.Repeat("x", 10_000)) {
		mustApply(t, s, f)
	}
	if s.HeldBytes() > 1<<20 || s.Len() < 50 || !s.HasOlder {
		t.Fatalf("holds %d bytes in %d items (hasOlder %v), bound 1 MiB", s.HeldBytes(), s.Len(), s.HasOlder)
	}
	var sum int64
	for _, it := range s.Items() {
		sum += int64(it.held)
	}
	if sum != s.HeldBytes() {
		t.Fatalf("held bytes %d, items sum to %d", s.HeldBytes(), sum)
	}
}

// Limits survive a snapshot, which is bounded too.
func TestLimitsSurviveSnapshots(t *testing.T) {
	src := fold(t, completedItems(1, 300, "x")...)
	snap := src.Snapshot(0)
	s := NewState(sid)
	s.SetLimits(Limits{Items: 100, FieldBytes: 10})
	if _, err := s.LoadSnapshot(sid, "e1", snap); err != nil {
		t.Fatal(err)
	}
	if s.Len() > 100 || !s.HasOlder || s.Limits().Items != 100 {
		t.Fatalf("after a snapshot: %d items, hasOlder %v, limits %+v", s.Len(), s.HasOlder, s.Limits())
	}
	mustApply(t, s, frame(MethodItemStarted, 301, 300, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)))
	mustApply(t, s, frame(MethodItemDelta, 302, -1, delta("m", "text", "more than ten bytes")))
	if got := s.Item("m").Text(); got != "more than " {
		t.Fatalf("text %q after the snapshot, want the field bound kept", got)
	}
}

// BenchmarkApplyDeltaBounded is BenchmarkApplyDelta with the client's
// bounds set: the bound check must cost nothing measurable.
func BenchmarkApplyDeltaBounded(b *testing.B) {
	s := NewState(sid)
	s.SetLimits(Limits{FieldBytes: 1 << 30, ItemBytes: 1 << 30, Items: 50_000, Bytes: 1 << 30})
	ev, err := DecodeFrame([]byte(frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`))))
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Apply(ev); err != nil {
		b.Fatal(err)
	}
	evs := make([]Event, b.N)
	for i := range evs {
		evs[i] = Event{Method: MethodItemDelta, SessionID: sid, Seq: int64(i + 2), ItemID: "m", Field: "text", Delta: "tok "}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range evs {
		if err := s.Apply(&evs[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// SnapshotWithin keeps the newest items that fit the byte bound, in order.
func TestSnapshotWithinBytes(t *testing.T) {
	s := fold(t, completedItems(1, 100, strings.Repeat("y", 1000))...)
	whole, cut := s.SnapshotWithin(0, 0)
	if cut || len(whole.Items) != 100 || whole.HasOlder {
		t.Fatalf("unbounded: %d items, cut %v, hasOlder %v", len(whole.Items), cut, whole.HasOlder)
	}
	snap, cut := s.SnapshotWithin(50, 10_000)
	total := 0
	for _, it := range snap.Items {
		total += len(it)
	}
	if !cut || !snap.HasOlder || len(snap.Items) == 0 || len(snap.Items) >= 10 || total > 10_000 {
		t.Fatalf("bounded: %d items, %d bytes, cut %v, hasOlder %v", len(snap.Items), total, cut, snap.HasOlder)
	}
	if !bytes.Equal(snap.Items[len(snap.Items)-1], whole.Items[99]) || !bytes.Equal(snap.Items[0], whole.Items[100-len(snap.Items)]) {
		t.Fatal("not the newest items in order")
	}
}
