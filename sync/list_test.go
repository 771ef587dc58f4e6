package sync

import (
	"testing"

	"github.com/lookout-sh/lookout/host"
)

func TestNextListCursor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cursor string
		page   listPage
		pages  int
		next   string
		more   bool
	}{
		{"a host that does not page", "", listPage{}, 1, "", false},
		{"the last page", "l:a", listPage{HasMore: false, NextCursor: ""}, 2, "", false},
		{"more follow", "", listPage{HasMore: true, NextCursor: "l:b"}, 1, "l:b", true},
		{"more without a cursor", "", listPage{HasMore: true}, 1, "", false},
		{"a cursor that does not move", "l:b", listPage{HasMore: true, NextCursor: "l:b"}, 2, "", false},
		{"too many pages", "l:b", listPage{HasMore: true, NextCursor: "l:c"}, maxListPages + 1, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next, more := nextListCursor(tc.cursor, tc.page, tc.pages)
			if next != tc.next || more != tc.more {
				t.Fatalf("got %q %v, want %q %v", next, more, tc.next, tc.more)
			}
		})
	}
}

// More sessions than one session/list page holds: ListSessions returns
// them all, and a client told no session follows the most recently
// updated one, which is on the last page.
func TestListingPagesThroughEverySession(t *testing.T) {
	h := startHost(t, host.Options{Ephemeral: true})
	const n = listLimit + 120
	var last string
	for range n {
		id, err := h.CreateSession("")
		if err != nil {
			t.Fatal(err)
		}
		last = id
	}
	opts := Options{URL: h.URL(), Token: h.Token(), HostsFile: "-", DataDir: t.TempDir()}
	ss, err := ListSessions(t.Context(), opts)
	if err != nil || len(ss) != n {
		t.Fatalf("ListSessions: %d sessions, %v", len(ss), err)
	}
	seen := map[string]bool{}
	for _, s := range ss {
		if seen[s.SessionID] {
			t.Fatalf("%s listed twice", s.SessionID)
		}
		seen[s.SessionID] = true
	}
	c := runClient(t, opts)
	s := waitFor(t, c.Client, "live", isLive)
	if s.SessionID != last {
		t.Fatalf("the client follows %s, want the newest session %s", s.SessionID, last)
	}
}
