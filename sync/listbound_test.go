package sync

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestListBudget(t *testing.T) {
	cases := []struct {
		name  string
		pages [][2]int // sessions, bytes per page
		bound string   // "" within bounds
	}{
		{"one small page", [][2]int{{10, 2000}}, ""},
		{"at the session bound", [][2]int{{maxListSessions, 1000}}, ""},
		{"past the session bound", [][2]int{{maxListSessions - 1, 1000}, {2, 100}}, "sessions"},
		{"huge pages of few sessions", [][2]int{{3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}, {3, 3 << 20}}, "bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b listBudget
			var err error
			for _, p := range c.pages {
				if err = b.take(p[0], p[1]); err != nil {
					break
				}
			}
			var tl *ListTooLargeError
			switch {
			case c.bound == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.bound != "" && (!errors.As(err, &tl) || tl.Bound != c.bound):
				t.Fatalf("err %v, want the %s bound", err, c.bound)
			}
		})
	}
	var b listBudget
	var err error
	for range maxListPages + 1 {
		if err = b.take(0, 10); err != nil {
			break
		}
	}
	if tl := (*ListTooLargeError)(nil); !errors.As(err, &tl) || tl.Bound != "pages" {
		t.Fatalf("empty pages forever: %v", err)
	}
}

// A host that answers session/list with 3 MB pages and hasMore forever
// gets a *ListTooLargeError once the list passes its byte bound, and the
// client lets go of what it read.
func TestHostileEndlessSessionListIsBounded(t *testing.T) {
	h := newHostileHost(t, nil)
	var page strings.Builder
	page.WriteString(`{"sessions":[`)
	title := strings.Repeat("t", 1<<20)
	for i := range 3 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"sessionId":"s%d","title":%q,"status":"idle","updatedAt":"2026-01-01T00:00:00Z"}`, i, title)
	}
	page.WriteString(`],"hasMore":true,"nextCursor":"c%CURSOR%"}`)
	h.mu.Lock()
	h.list = page.String()
	h.mu.Unlock()
	ctx, cancel := contextWithTimeout()
	defer cancel()
	_, err := ListSessions(ctx, Options{URL: h.URL(), HostsFile: "-"})
	var tl *ListTooLargeError
	if !errors.As(err, &tl) || tl.Bound != "bytes" {
		t.Fatalf("ListSessions: %v, want the byte bound", err)
	}
	if heap := heapAfterGC(); heap > 3*maxListBytes {
		t.Fatalf("the heap holds %d MiB after the refused list", heap>>20)
	}
}
