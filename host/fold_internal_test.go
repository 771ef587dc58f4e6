package host

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// emitItem emits one item event with text of textLen bytes and returns
// the item's id.
func emitItem(t *testing.T, s *session, method, status string, textLen int) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	id := newID()
	o := newItemObject(id, model.KindAgentMessage, "turn", status, s.seq+1)
	o.apply(map[string]any{"text": strings.Repeat("x", textLen)}, boundsFor(0))
	if _, err := s.emitLocked(method, map[string]any{"item": o.raw()}); err != nil {
		t.Fatal(err)
	}
	return id
}

// wholeFold folds every journaled event of s into a fresh State: what the
// session's fold held before it was bounded.
func wholeFold(t *testing.T, s *session) *model.State {
	t.Helper()
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	st := model.NewState(s.id)
	st.Epoch = s.epoch
	err := s.h.j.scan(s.id, func(e journalEvent) error {
		ev, err := model.DecodeNotification(e.Method, e.Params)
		if err != nil {
			return err
		}
		return st.Apply(ev)
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// wantSnapshot is the snapshot the whole fold gives: the newest limit
// items whose encodings fit PageBytes (at least one).
func wantSnapshot(st *model.State, limit int) model.Snapshot {
	snap := st.Snapshot(limit)
	size := 0
	for i := len(snap.Items) - 1; i >= 0; i-- {
		size += len(snap.Items[i])
		if size > PageBytes && i < len(snap.Items)-1 {
			snap.Items, snap.HasOlder = snap.Items[i+1:], true
			break
		}
	}
	return snap
}

func checkSnapshots(t *testing.T, s *session) {
	t.Helper()
	want := wholeFold(t, s)
	for _, limit := range []int{1, 7, DefaultPageLimit, MaxPageLimit} {
		s.mu.Lock()
		got, err := s.snapshotLocked(limit)
		s.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(wantSnapshot(want, limit))
		if string(g) != string(w) {
			t.Fatalf("limit %d: the snapshot differs from the whole fold's (%d and %d items, %d and %d bytes)",
				limit, len(got.Items), len(wantSnapshot(want, limit).Items), len(g), len(w))
		}
	}
}

// TestBoundedFoldServesWhatTheWholeFoldServed: a session of more items
// than its fold keeps, with an item left open long before the newest,
// gives the snapshots the whole fold gave, live and after a restart, and
// the open item keeps taking deltas and revisions.
func TestBoundedFoldServesWhatTheWholeFoldServed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		textLen int // bytes of text per item
		items   int
	}{
		{"many small items", 60, 2*foldKeepItems + foldSlackItems + 17},
		{"large items: the byte bounds decide", 9000, 1200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			s, err := h.createSession("bounded")
			if err != nil {
				t.Fatal(err)
			}
			emitItem(t, s, model.MethodItemCompleted, model.StatusCompleted, tc.textLen)
			open := emitItem(t, s, model.MethodItemStarted, model.StatusInProgress, 10)
			for range tc.items {
				emitItem(t, s, model.MethodItemCompleted, model.StatusCompleted, tc.textLen)
			}
			s.mu.Lock()
			held := s.state.Len()
			if held >= tc.items {
				s.mu.Unlock()
				t.Fatalf("the fold holds %d of %d items: it was never compacted", held, tc.items)
			}
			if s.state.Item(open) == nil {
				s.mu.Unlock()
				t.Fatal("the fold let an open item go")
			}
			if _, err := s.emitLocked(model.MethodItemDelta, map[string]any{"itemId": open, "field": "text", "delta": " more"}); err != nil {
				s.mu.Unlock()
				t.Fatalf("a delta for the old open item: %v", err)
			}
			s.mu.Unlock()
			s.mu.Lock()
			err = s.completeItemLocked(open, model.StatusCompleted, nil)
			s.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			checkSnapshots(t, s)
			// The item's final object restates the delta.
			s.mu.Lock()
			text := s.state.Item(open).String("text")
			s.mu.Unlock()
			if !strings.HasSuffix(text, " more") {
				t.Fatalf("the open item's text is %q, want the delta restated", text)
			}
			open2 := emitItem(t, s, model.MethodItemStarted, model.StatusInProgress, 10)
			for range foldKeepItems + 10 {
				emitItem(t, s, model.MethodItemCompleted, model.StatusCompleted, 30)
			}
			sid := s.id
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}

			// The restart loads the session (it has an open item) and ends
			// that item as a host death would.
			h2, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer h2.Close()
			s2, err := h2.loadedSession(sid)
			if err != nil {
				t.Fatal(err)
			}
			s2.mu.Lock()
			it := s2.state.Item(open2)
			if it == nil || it.IsOpen() || it.String("endedBy") != "hostDeath" {
				s2.mu.Unlock()
				t.Fatalf("the item open at the restart is %+v, want it ended by hostDeath", it)
			}
			if n := s2.state.Len(); n > foldKeepItems+1 {
				s2.mu.Unlock()
				t.Fatalf("the loaded fold holds %d items, want at most %d", n, foldKeepItems+1)
			}
			s2.mu.Unlock()
			checkSnapshots(t, s2)
		})
	}
}

// TestItemBodiesFromTheJournal: items the fold let go are encoded from
// their latest journaled objects exactly as the fold encoded them.
func TestItemBodiesFromTheJournal(t *testing.T) {
	h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.createSession("bodies")
	if err != nil {
		t.Fatal(err)
	}
	for range 2*foldKeepItems + foldSlackItems {
		emitItem(t, s, model.MethodItemCompleted, model.StatusCompleted, 20)
	}
	whole := wholeFold(t, s)
	s.mu.Lock()
	defer s.mu.Unlock()
	entries := s.positions[:50]
	for _, e := range entries {
		if s.state.Item(e.id) != nil {
			t.Fatalf("item %s is still held: the test reads nothing from the journal", e.id)
		}
	}
	bodies, err := s.itemBodiesLocked(entries)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		if want := whole.Item(e.id).AppendJSON(nil); string(bodies[i]) != string(want) {
			t.Fatalf("item %d: %s, want %s", i, bodies[i], want)
		}
	}
}

func TestKeepItems(t *testing.T) {
	item := func(id string, pos int64, status string, textLen int) *model.Item {
		o := newItemObject(id, model.KindAgentMessage, "turn", status, pos)
		o.apply(map[string]any{"text": strings.Repeat("x", textLen)}, boundsFor(0))
		it, err := model.DecodeItem(o.raw())
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	many := func(n, textLen int, openAt int) []*model.Item {
		var items []*model.Item
		for i := range n {
			status := model.StatusCompleted
			if i == openAt {
				status = model.StatusInProgress
			}
			items = append(items, item(newID(), int64(i+1), status, textLen))
		}
		return items
	}
	large := many(300, 16<<10, -1)
	per := large[0].ContentLen()
	byBytes := (foldKeepBytes + per - 1) / per // kept until their content reaches foldKeepBytes
	for _, tc := range []struct {
		name       string
		items      []*model.Item
		want       int
		wantOldest int64 // position of the oldest kept
	}{
		{"fewer than kept: all", many(10, 10, -1), 10, 1},
		{"the newest foldKeepItems", many(foldKeepItems+500, 10, -1), foldKeepItems, 501},
		{"an old open item is kept too", many(foldKeepItems+500, 10, 3), foldKeepItems + 1, 4},
		{"large items: the byte bound", large, byBytes, int64(300 - byBytes + 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep := keepItems(tc.items)
			if len(keep) != tc.want {
				t.Fatalf("kept %d, want %d", len(keep), tc.want)
			}
			if keep[0].Position != tc.wantOldest {
				t.Fatalf("oldest kept at %d, want %d", keep[0].Position, tc.wantOldest)
			}
			if keep[len(keep)-1] != tc.items[len(tc.items)-1] {
				t.Fatal("the newest item is not kept")
			}
		})
	}
}
