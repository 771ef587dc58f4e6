package sync

import "fmt"

// A client reads a host's session list into memory, so the list is
// bounded as a whole, not only per frame: a host that answers hasMore
// forever, or with pages of huge titles, gets a clear error instead of
// the client's memory.

const (
	// maxListSessions bounds the sessions a list may hold: ten times a
	// host's default session bound (host.DefaultMaxSessions).
	maxListSessions = 100_000
	// maxListBytes bounds the bytes of session/list answers read for one
	// list: about 320 bytes a session at maxListSessions.
	maxListBytes = 32 << 20
)

// ListTooLargeError says a host's session list went past a bound; what
// was read so far is dropped.
type ListTooLargeError struct {
	Pages, Sessions, Bytes int
	// Bound names the bound passed: "sessions", "bytes" or "pages".
	Bound string
}

func (e *ListTooLargeError) Error() string {
	return fmt.Sprintf("the host's session list is too large: past the bound on %s after %d pages, %d sessions, %d bytes (a client reads at most %d sessions, %d MiB, %d pages)",
		e.Bound, e.Pages, e.Sessions, e.Bytes, maxListSessions, maxListBytes>>20, maxListPages)
}

// listBudget counts what a list has read so far.
type listBudget struct {
	pages, sessions, bytes int
}

// take accounts for one page of n sessions in size bytes, and says
// whether the list is still within its bounds.
func (b *listBudget) take(n, size int) error {
	b.pages++
	b.sessions += n
	b.bytes += size
	bound := ""
	switch {
	case b.sessions > maxListSessions:
		bound = "sessions"
	case b.bytes > maxListBytes:
		bound = "bytes"
	case b.pages > maxListPages:
		bound = "pages"
	}
	if bound == "" {
		return nil
	}
	return &ListTooLargeError{Pages: b.pages, Sessions: b.sessions, Bytes: b.bytes, Bound: bound}
}
