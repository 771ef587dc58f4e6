package agenttest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is the HTTP side of a fake model API for an agent's real
// program, on 127.0.0.1: it serves a fake's handler, records the requests
// the handler parsed (R is the fake's own request type), counts attempts
// of failing scenarios, and on Close ends every stream in progress. It is
// safe for concurrent use, and closes when the test ends.
type Server[R any] struct {
	srv *httptest.Server
	tag string

	ctx  context.Context // ends when the server closes
	stop context.CancelFunc

	mu       sync.Mutex
	reqs     []R
	attempts map[string]int
	closed   bool
}

// NewServer starts h for t; it is closed by t.Cleanup.
func NewServer[R any](t testing.TB, h http.Handler) *Server[R] {
	t.Helper()
	var tag [3]byte
	if _, err := rand.Read(tag[:]); err != nil {
		t.Fatalf("agenttest: random id tag: %v", err)
	}
	s := &Server[R]{tag: hex.EncodeToString(tag[:]), attempts: map[string]int{}}
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.srv = httptest.NewServer(h) // httptest listens on 127.0.0.1
	t.Cleanup(s.Close)
	return s
}

// URL is the server's base URL ("http://127.0.0.1:PORT").
func (s *Server[R]) URL() string { return s.srv.URL }

// Tag is a random hex tag, unique per server: a fake puts it in every id
// it mints, so ids never repeat across fakes.
func (s *Server[R]) Tag() string { return s.tag }

// Record keeps the request numbered makes of its sequence number (1 for
// the server's first request) and returns it.
func (s *Server[R]) Record(numbered func(seq int) R) R {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := numbered(len(s.reqs) + 1)
	s.reqs = append(s.reqs, r)
	return r
}

// Requests returns a copy of every request recorded so far, in order.
func (s *Server[R]) Requests() []R {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]R(nil), s.reqs...)
}

// Attempt counts one more attempt of key (a turn and its prompt) and
// returns how many there were, this one included: a failing scenario fails
// its first attempts and answers a later one.
func (s *Server[R]) Attempt(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts[key]++
	return s.attempts[key]
}

// StreamContext is r's context, also ended when the server closes: stream
// an answer with it and call done when the answer ends.
func (s *Server[R]) StreamContext(r *http.Request) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(r.Context())
	stopOnClose := context.AfterFunc(s.ctx, cancel)
	return ctx, func() {
		stopOnClose()
		cancel()
	}
}

// Close ends any stream in progress and stops the server. It is safe to
// call more than once.
func (s *Server[R]) Close() {
	s.mu.Lock()
	closed := s.closed
	s.closed = true
	s.mu.Unlock()
	if closed {
		return
	}
	s.stop()
	s.srv.CloseClientConnections()
	s.srv.Close()
}
