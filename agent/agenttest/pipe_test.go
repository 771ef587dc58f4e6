package agenttest

import (
	"bufio"
	"io"
	"testing"

	"github.com/lookout-sh/lookout/agent/child"
)

func TestPipeCarriesLinesBothWays(t *testing.T) {
	r, w, end := NewPipe(t)
	q := child.NewQueue[string]()
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			q.Push(sc.Text())
		}
		q.Close()
	}()
	go func() { _, _ = io.WriteString(w, `{"method":"hello"}`+"\n") }() // Recv fails without it
	if m := end.Recv(t); m["method"] != "hello" {
		t.Errorf("received %v", m)
	}
	end.Send(t, "a line")
	if got := WaitQueued(t, q); got != "a line" {
		t.Errorf("queued %q", got)
	}
	end.Close()
	<-q.Done()
}
