package agenttest

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type recorded struct {
	Seq  int
	Path string
}

func TestServerRecordsRequestsAndEndsStreamsOnClose(t *testing.T) {
	var s *Server[recorded]
	streaming := make(chan struct{})
	s = NewServer[recorded](t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Record(func(seq int) recorded { return recorded{seq, r.URL.Path} })
		if r.URL.Path != "/stream" {
			return
		}
		ctx, done := s.StreamContext(r)
		defer done()
		sse := NewSSE(ctx, w, 0)
		sse.Event("start", map[string]any{})
		close(streaming)
		<-ctx.Done()
	}))
	if len(s.Tag()) != 6 {
		t.Errorf("tag %q", s.Tag())
	}
	for _, p := range []string{"/a", "/b"} {
		resp, err := http.Get(s.URL() + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got := s.Requests(); len(got) != 2 || got[0] != (recorded{1, "/a"}) || got[1] != (recorded{2, "/b"}) {
		t.Errorf("recorded %+v", got)
	}
	if a, b := s.Attempt("turn 1"), s.Attempt("turn 1"); a != 1 || b != 2 || s.Attempt("turn 2") != 1 {
		t.Error("attempts are not counted per key")
	}
	resp, err := http.Get(s.URL() + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-streaming
	read := make(chan string)
	go func() {
		b, _ := io.ReadAll(resp.Body)
		read <- string(b)
	}()
	s.Close()
	s.Close()
	select {
	case body := <-read:
		if !strings.Contains(body, "event: start") {
			t.Errorf("stream body %q", body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the stream")
	}
}
