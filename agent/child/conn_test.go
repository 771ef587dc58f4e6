package child

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

func TestConnServesLinesThenCloses(t *testing.T) {
	r, w := io.Pipe()
	var sent strings.Builder
	c := NewConn[string, string, string](&sent, errGone, func(seq int64) string { return strconv.FormatInt(seq, 10) })
	waiting, _ := c.Calls.Start()
	served := make(chan error, 1)
	go func() {
		served <- c.Serve(r, 16, func(b []byte) {
			if id, answer, ok := strings.Cut(string(b), "="); ok {
				c.Calls.Answer(id, answer)
				return
			}
			c.Queue.Push(string(b))
		}, func([]byte) { c.Queue.Push("too long") })
	}()
	if err := c.Out.Send("hello"); err != nil || sent.String() != "\"hello\"\n" {
		t.Fatalf("sent %q, %v", sent.String(), err)
	}
	if _, err := io.WriteString(w, "first\n1=yes\n"+strings.Repeat("x", 40)+"\nlast\n"); err != nil {
		t.Fatal(err)
	}
	if a, err := waiting.Wait(t.Context()); a != "yes" || err != nil {
		t.Errorf("answer %q, %v", a, err)
	}
	pending, _ := c.Calls.Start()
	w.Close()
	if err := <-served; !errors.Is(err, io.EOF) {
		t.Errorf("Serve ended with %v", err)
	}
	if _, err := pending.Wait(t.Context()); !errors.Is(err, errGone) {
		t.Errorf("a call pending at the end: %v", err)
	}
	var got []string
	c.Queue.Consume(func(m string) { got = append(got, m) })
	if strings.Join(got, "|") != "first|too long|last" {
		t.Errorf("queued %q", got)
	}
}
