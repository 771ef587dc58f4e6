package child

import "sync"

// tailBuffer is an io.Writer that keeps the last max bytes written to it.
// It is safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool // bytes were dropped from the front
}

// Write keeps the end of p; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.add(p)
	return len(p), nil
}

func (t *tailBuffer) add(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
		t.cut = true
	}
}

// Tail is what is kept, and whether bytes before it were dropped (so its
// first line may be a fragment).
func (t *tailBuffer) Tail() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b), t.cut
}
