package child

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// LineWriter writes JSON values to a child's stdin as JSON lines, each
// line whole: senders on several goroutines never interleave. It is safe
// for concurrent use.
type LineWriter struct {
	errClosed error

	mu sync.Mutex
	w  io.Writer
}

// NewLineWriter writes to w; a failed write is reported wrapping
// errClosed (the child has gone).
func NewLineWriter(w io.Writer, errClosed error) *LineWriter {
	return &LineWriter{errClosed: errClosed, w: w}
}

// Send writes v as one JSON line. A v that does not marshal is that
// error, and nothing is written; a failed write wraps the closed error.
func (l *LineWriter) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(b); err != nil {
		return fmt.Errorf("%w: %w", l.errClosed, err)
	}
	return nil
}
