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

// listPage is the session/list answer for the sessions (in creation
// order) after the one with id after ("" from the first): at most limit
// entries and, past the first, about maxBytes of them. nextCursor is set
// when hasMore is.
func listPage(all []*session, after string, limit, maxBytes int) listAnswer {
	start := 0
	if after != "" {
		for i, s := range all {
			if s.id == after {
				start = i + 1
				break
			}
		}
	}
	out := listAnswer{Sessions: []map[string]any{}}
	size := 0
	i := start
	for ; i < len(all) && len(out.Sessions) < limit; i++ {
		e := all[i].summary()
		n := entrySize(e)
		if len(out.Sessions) > 0 && size+n > maxBytes {
			break
		}
		out.Sessions = append(out.Sessions, e)
		size += n
	}
	if i < len(all) && len(out.Sessions) > 0 {
		out.HasMore = true
		c := formatListCursor(all[i-1].id)
		out.NextCursor = &c
	}
	return out
}

func entrySize(e map[string]any) int {
	b, _ := json.Marshal(e)
	return len(b) + 1
}
