package sync

import (
	"cmp"
	"slices"
	"time"
)

// Updated is the session's last update time: UpdatedAt parsed as RFC 3339
// (with or without fractional seconds). The zero time when the host sent
// none or something else.
func (s SessionInfo) Updated() time.Time {
	t, err := time.Parse(time.RFC3339Nano, s.UpdatedAt)
	if err != nil {
		return time.Time{}
	}
	return t
}

// CompareSessions orders sessions the one way Lookout lists them (the
// picker and `lookout sessions`): most recently updated first, by time and
// not by text (RFC 3339 strings with different fractional digits do not
// sort as text); sessions without a readable time last; ties by id,
// greatest first (the host's ids grow with time, so the newer first).
func CompareSessions(a, b SessionInfo) int {
	ta, tb := a.Updated(), b.Updated()
	return cmp.Or(
		cmp.Compare(unreadable(ta), unreadable(tb)),
		tb.Compare(ta),
		cmp.Compare(b.SessionID, a.SessionID),
	)
}

// unreadable ranks a session's time for CompareSessions: 1 (last) when
// there is none.
func unreadable(t time.Time) int {
	if t.IsZero() {
		return 1
	}
	return 0
}

// SortSessions sorts ss in place with CompareSessions.
func SortSessions(ss []SessionInfo) { slices.SortStableFunc(ss, CompareSessions) }
