package agenttest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
)

// Pipe is the child's end of a bridge's connection, for tests of the
// bridge's protocol code without the agent: what the bridge writes, Recv
// reads; what Send writes, the bridge reads. It speaks JSON lines.
type Pipe struct {
	in  *bufio.Scanner // what the bridge sent
	out io.WriteCloser // what the bridge reads
}

// NewPipe returns the reader and writer to build the bridge's connection
// on, and the child's end. Both directions close when the test ends.
func NewPipe(t testing.TB) (r io.Reader, w io.Writer, end *Pipe) {
	t.Helper()
	cr, sw := io.Pipe() // child -> bridge
	sr, cw := io.Pipe() // bridge -> child
	t.Cleanup(func() { sw.Close(); cw.Close() })
	return cr, cw, &Pipe{in: bufio.NewScanner(sr), out: sw}
}

// Send writes line, and a newline, to the bridge.
func (p *Pipe) Send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(p.out, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// Read reads the bridge's next line as a JSON object.
func (p *Pipe) Read() (map[string]any, error) {
	if !p.in.Scan() {
		return nil, errors.New("agenttest: the bridge sent nothing")
	}
	var m map[string]any
	if err := json.Unmarshal(p.in.Bytes(), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// Recv is Read, failing t when it fails.
func (p *Pipe) Recv(t testing.TB) map[string]any {
	t.Helper()
	m, err := p.Read()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Close ends the child's output, as a child that exits does.
func (p *Pipe) Close() error { return p.out.Close() }

// WaitQueued waits up to 5 s for the next value of q (a bridge
// connection's queue) and returns it, failing t when none comes.
func WaitQueued[T any](t testing.TB, q *child.Queue[T]) T {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if v, ok := q.Next(); ok {
			return v
		}
		select {
		case <-q.Ready():
		case <-deadline:
			t.Fatal("agenttest: nothing queued")
		}
	}
}
