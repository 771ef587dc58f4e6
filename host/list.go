package host

import (
	"encoding/json"
	"strings"
)

// listCursorPrefix starts every session/list cursor. A cursor names the
// last session of the previous answer: the next answer starts after it.
// Sessions are listed in creation order and never removed, so a cursor
// stays valid and no session is listed twice or skipped while others are
// created.
const listCursorPrefix = "l:"

func formatListCursor(sessionID string) string { return listCursorPrefix + sessionID }

func parseListCursor(c string) (string, bool) {
	sid, ok := strings.CutPrefix(c, listCursorPrefix)
	return sid, ok && sid != ""
}

// listAnswer is one session/list answer.
type listAnswer struct {
	Sessions   []map[string]any `json:"sessions"`
	HasMore    bool             `json:"hasMore"`
	NextCursor *string          `json:"nextCursor"`
}

// listing is what a session/list pages through: n sessions in listing
// order, the i-th's id and entry (nil: not listed after all).
type listing struct {
	n     int
	id    func(i int) string
	entry func(i int) map[string]any
}

// sessionListing lists sessions this host holds, in their order.
func sessionListing(all []*session) listing {
	return listing{n: len(all), id: func(i int) string { return all[i].id }, entry: func(i int) map[string]any { return all[i].summary() }}
}

// listPage is the session/list answer for the sessions from index start
// of l: at most limit entries and, past the first, about maxBytes of
// them. nextCursor is set when hasMore is.
func listPage(l listing, start, limit, maxBytes int) listAnswer {
	out := listAnswer{Sessions: []map[string]any{}}
	size, last := 0, -1
	i := start
	for ; i < l.n && len(out.Sessions) < limit; i++ {
		e := l.entry(i)
		if e == nil {
			continue
		}
		n := entrySize(e)
		if len(out.Sessions) > 0 && size+n > maxBytes {
			break
		}
		out.Sessions = append(out.Sessions, e)
		size += n
		last = i
	}
	if i < l.n && last >= 0 {
		out.HasMore = true
		c := formatListCursor(l.id(last))
		out.NextCursor = &c
	}
	return out
}

// indexAfter is the index of the session after the one with id after in
// l, 0 for "" and -1 when l has no such session.
func indexAfter(l listing, after string) int {
	if after == "" {
		return 0
	}
	for i := range l.n {
		if l.id(i) == after {
			return i + 1
		}
	}
	return -1
}

func entrySize(e map[string]any) int {
	b, _ := json.Marshal(e)
	return len(b) + 1
}
