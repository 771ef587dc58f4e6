package model

import (
	"bytes"
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// Re-delivering any event, at any later point, changes nothing.
func TestPropertyRedeliveryIsNoOp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScript(t)
		evs := decodeAll(t, s.frames)
		want := foldAll(t, evs).Encode()
		i := rapid.IntRange(0, len(evs)-1).Draw(t, "dup")
		j := rapid.IntRange(i+1, len(evs)).Draw(t, "at")
		again, _ := DecodeFrame([]byte(s.frames[i]))
		script := append(append(append([]*Event{}, evs[:j]...), again), evs[j:]...)
		if got := foldAll(t, script).Encode(); !bytes.Equal(got, want) {
			t.Fatalf("re-delivery of event %d at %d changed state:\n got %s\nwant %s", i, j, got, want)
		}
	})
}

// A snapshot taken at every cursor, sent over the wire and loaded, plus the
// events after it, equals the fold of every event, byte for byte.
func TestPropertySnapshotPlusSuffixEqualsFullFold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScript(t)
		evs := decodeAll(t, s.frames)
		want := foldAll(t, evs).Encode()
		for c := 0; c <= len(evs); c++ {
			host := foldAll(t, evs[:c])
			raw, err := json.Marshal(host.Snapshot(0))
			if err != nil {
				t.Fatal(err)
			}
			var snap Snapshot
			if err := json.Unmarshal(raw, &snap); err != nil {
				t.Fatal(err)
			}
			client := NewState(s.sid)
			if _, err := client.LoadSnapshot(s.sid, "e1", snap); err != nil {
				t.Fatalf("load snapshot at %d: %v", c, err)
			}
			for _, ev := range evs[c:] {
				if err := client.Apply(ev); err != nil {
					t.Fatalf("suffix after %d: %v", c, err)
				}
			}
			if got := client.Encode(); !bytes.Equal(got, want) {
				t.Fatalf("snapshot at %d + suffix differs:\n got %s\nwant %s", c, got, want)
			}
		}
	})
}

// The concatenation of the deltas for a field equals the committed value.
func TestPropertyDeltasConcatenateToCommittedValue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScript(t)
		st := NewState("")
		for _, f := range s.frames {
			ev, err := DecodeFrame([]byte(f))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Method == MethodItemCompleted {
				if before := st.Item(ev.Item.ID); before != nil {
					for field, want := range s.committed[ev.Item.ID] {
						if got := before.String(field); got != want {
							t.Fatalf("%s.%s folded from deltas = %q, committed %q", ev.Item.ID, field, got, want)
						}
						if got := ev.Item.String(field); got != want {
							t.Fatalf("completed object %s.%s = %q, want %q", ev.Item.ID, field, got, want)
						}
					}
				}
			}
			if err := st.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// Any order of duplicated full-object events converges on each item's
// highest revision.
func TestPropertyFullObjectsConvergeInAnyOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScript(t)
		evs := decodeAll(t, s.frames)
		full := foldAll(t, evs)
		var objs []*Event
		for _, ev := range evs {
			if ev.Item != nil {
				objs = append(objs, ev)
				if rapid.Bool().Draw(t, "duplicate") {
					objs = append(objs, ev)
				}
			}
		}
		perm := rapid.Permutation(objs).Draw(t, "order")
		st := NewState(s.sid)
		for i, ev := range perm {
			c := *ev
			c.Seq = int64(i + 1) // fresh seqs so the re-delivery gate lets each through
			if err := st.Apply(&c); err != nil {
				t.Fatal(err)
			}
		}
		if len(st.Items()) != len(full.Items()) {
			t.Fatalf("%d items, want %d", len(st.Items()), len(full.Items()))
		}
		for _, want := range full.Items() {
			got := st.Item(want.ID)
			if got == nil {
				t.Fatalf("item %s missing", want.ID)
			}
			// The full fold also folded deltas onto open items; compare the
			// revision and, for items whose last word was a full object, the bytes.
			if got.Revision != want.Revision {
				t.Fatalf("%s revision %d, want %d", want.ID, got.Revision, want.Revision)
			}
			if !want.IsOpen() && !bytes.Equal(got.AppendJSON(nil), want.AppendJSON(nil)) {
				t.Fatalf("%s:\n got %s\nwant %s", want.ID, got.AppendJSON(nil), want.AppendJSON(nil))
			}
		}
	})
}

// A View published before more events are folded never changes.
func TestPropertyPublishedViewsAreImmutable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScript(t)
		evs := decodeAll(t, s.frames)
		st := NewState("")
		type pinned struct {
			v    *View
			json [][]byte
		}
		var views []pinned
		for _, ev := range evs {
			if err := st.Apply(ev); err != nil {
				t.Fatal(err)
			}
			if rapid.IntRange(0, 3).Draw(t, "publish") == 0 {
				v := st.View()
				p := pinned{v: v}
				for _, it := range v.Items {
					p.json = append(p.json, it.AppendJSON(nil))
				}
				views = append(views, p)
			}
		}
		for _, p := range views {
			for i, it := range p.v.Items {
				if got := it.AppendJSON(nil); !bytes.Equal(got, p.json[i]) {
					t.Fatalf("published item %s changed:\n was %s\n now %s", it.ID, p.json[i], got)
				}
			}
		}
	})
}
