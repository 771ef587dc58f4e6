package host

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/fleet"
)

func TestListPage(t *testing.T) {
	h := &Host{}
	var all []*session
	for i := range 5 {
		all = append(all, newSession(h, sessionRecord{ID: fmt.Sprintf("s%d", i), CreatedAt: "2026-01-01T00:00:00Z"}))
	}
	entry := entrySize(all[0].summary())
	ids := func(a listAnswer) string {
		var out []string
		for _, e := range a.Sessions {
			out = append(out, e["sessionId"].(string))
		}
		return strings.Join(out, ",")
	}
	cursor := func(a listAnswer) string {
		if a.NextCursor == nil {
			return ""
		}
		return *a.NextCursor
	}
	for _, tc := range []struct {
		name         string
		after        string
		limit, bytes int
		want, next   string
	}{
		{"everything", "", 10, 1 << 20, "s0,s1,s2,s3,s4", ""},
		{"limited", "", 2, 1 << 20, "s0,s1", "l:s1"},
		{"after a cursor", "s1", 2, 1 << 20, "s2,s3", "l:s3"},
		{"the last page", "s3", 2, 1 << 20, "s4", ""},
		{"after the last", "s4", 2, 1 << 20, "", ""},
		{"bounded in bytes", "", 10, 2*entry + 1, "s0,s1", "l:s1"},
		{"one entry always fits", "s2", 10, 1, "s3", "l:s3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := sessionListing(all)
			a := listPage(l, indexAfter(l, tc.after), tc.limit, tc.bytes)
			if ids(a) != tc.want || cursor(a) != tc.next || a.HasMore != (tc.next != "") {
				t.Fatalf("got %q next %q hasMore %v, want %q next %q", ids(a), cursor(a), a.HasMore, tc.want, tc.next)
			}
		})
	}
	if i := indexAfter(sessionListing(all), "s9"); i != -1 {
		t.Fatalf("indexAfter of an unknown session = %d, want -1", i)
	}
	holes := listing{n: 4, id: func(i int) string { return all[i].id }, entry: func(i int) map[string]any {
		if i%2 == 1 {
			return nil // not listed after all
		}
		return all[i].summary()
	}}
	if a := listPage(holes, 0, 10, 1<<20); ids(a) != "s0,s2" || a.HasMore {
		t.Fatalf("a listing with holes pages %q (hasMore %v)", ids(a), a.HasMore)
	}
	if sid, ok := parseListCursor("l:a:b"); !ok || sid != "a:b" {
		t.Fatalf("parseListCursor = %q %v", sid, ok)
	}
	for _, bad := range []string{"", "l:", "v:s:1", "s1"} {
		if _, ok := parseListCursor(bad); ok {
			t.Fatalf("parseListCursor(%q) accepted", bad)
		}
	}
}

func TestRejectionMemoryKeepsTheNewest(t *testing.T) {
	m := newRejectionMemory(3)
	var forgotten []string
	for _, c := range []string{"a", "b", "c", "b", "d", "e"} {
		forgotten = append(forgotten, m.add(c, "emptyText")...)
	}
	if !slices.Equal(forgotten, []string{"a", "b"}) || !slices.Equal(m.order, []string{"c", "d", "e"}) || m.len() != 3 {
		t.Fatalf("forgot %v, kept %v", forgotten, m.order)
	}
	if _, ok := m.get("a"); ok {
		t.Fatal("a forgotten rejection is remembered")
	}
	if r, ok := m.get("e"); !ok || r != "emptyText" {
		t.Fatalf("get(e) = %q %v", r, ok)
	}
}

// A session whose agent reports a cost lists it (costUsd), for `lookout
// sessions` and the picker; one without lists none.
func TestListEntryCarriesTheCost(t *testing.T) {
	h, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), DemoSession: false})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.createSession("costly")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.summary()["costUsd"]; ok {
		t.Fatal("a session without a reported cost lists one")
	}
	if err := (Session{s: s}).SetState(map[string]any{"costUsd": 0.42}); err != nil {
		t.Fatal(err)
	}
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	if got := s.summary()["costUsd"]; got != 0.42 {
		t.Fatalf("costUsd = %v, want 0.42", got)
	}
}

// A fleet listing's order only grows: the directory's sessions by id,
// then, read by read, the ones not listed yet (the directory's and those
// this host writes that it does not show yet), each sorted.
func TestFleetListOrderOnlyGrows(t *testing.T) {
	dir := func(ids ...string) []fleet.Entry {
		var es []fleet.Entry
		for _, id := range ids {
			es = append(es, fleet.Entry{SessionID: id})
		}
		return es
	}
	for _, tc := range []struct {
		name    string
		reads   [][]fleet.Entry
		written [][]string
		want    string
	}{
		{"one read", [][]fleet.Entry{dir("a", "b", "c")}, [][]string{nil}, "a,b,c"},
		{"written, not in the directory yet", [][]fleet.Entry{dir("b", "d")}, [][]string{{"c", "b"}}, "b,c,d"},
		{"later sessions come at the end", [][]fleet.Entry{dir("b", "d"), dir("a", "b", "c", "d", "e")}, [][]string{nil, nil}, "b,d,a,c,e"},
		{"a written one the directory shows later stays", [][]fleet.Entry{dir("a"), dir("a", "z")}, [][]string{{"z"}, {"z"}}, "a,z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st fleetListState
			for i, r := range tc.reads {
				st.absorb(r, tc.written[i], time.Now())
			}
			if got := strings.Join(st.order, ","); got != tc.want {
				t.Fatalf("order %s, want %s", got, tc.want)
			}
			for i, id := range st.order {
				if j, ok := st.indexAfter(id); !ok || j != i+1 {
					t.Fatalf("indexAfter(%s) = %d %v", id, j, ok)
				}
			}
			if _, ok := st.indexAfter("unknown"); ok {
				t.Fatal("an unknown session is known")
			}
		})
	}
}
