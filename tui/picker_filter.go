package tui

import (
	"strings"

	"github.com/lookout-sh/lookout/sync"
)

// sessionMatches reports whether a session matches the picker's filter:
// every word of query appears, case-insensitively, in its title, status,
// fleet host or id. An empty query matches every session.
func sessionMatches(s sync.SessionInfo, query string) bool {
	hay := strings.ToLower(strings.Join([]string{s.Title, s.Status, s.Host, s.SessionID}, " "))
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// filterSessions is the sessions matching query, in their order.
func filterSessions(ss []sync.SessionInfo, query string) []sync.SessionInfo {
	if strings.TrimSpace(query) == "" {
		return ss
	}
	var out []sync.SessionInfo
	for _, s := range ss {
		if sessionMatches(s, query) {
			out = append(out, s)
		}
	}
	return out
}
