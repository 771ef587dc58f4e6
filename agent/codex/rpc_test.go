package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeServer is the app-server side of an rpcConn: it reads what the
// connection writes and writes lines back.
type fakeServer struct {
	in  *bufio.Scanner // what the client sent
	out io.WriteCloser // what the client reads
}

func newPipeConn(t *testing.T) (*rpcConn, *fakeServer) {
	t.Helper()
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	c := newRPCConn(cr, cw)
	t.Cleanup(func() { sw.Close(); cw.Close() })
	return c, &fakeServer{in: bufio.NewScanner(sr), out: sw}
}

func (s *fakeServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.out, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *fakeServer) recv(t *testing.T) map[string]any {
	t.Helper()
	if !s.in.Scan() {
		t.Fatal("the client sent nothing")
	}
	var m map[string]any
	if err := json.Unmarshal(s.in.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func waitMessage(t *testing.T, c *rpcConn) *message {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		if m, ok := c.queue.Next(); ok {
			return m
		}
		select {
		case <-c.queue.Ready():
		case <-deadline:
			t.Fatal("no message queued")
		}
	}
}

func TestRPCCallsGetTheirRepliesPastQueuedNotifications(t *testing.T) {
	c, s := newPipeConn(t)
	go func() {
		m := s.recv(t)
		// A notification and a server request arrive before the reply.
		s.send(t, `{"method":"item/agentMessage/delta","params":{"delta":"a"}}`)
		s.send(t, `{"id":0,"method":"item/commandExecution/requestApproval","params":{}}`)
		s.send(t, `{"id":`+jsonNumber(m["id"])+`,"result":{"ok":true}}`)
	}()
	res, err := c.call(context.Background(), "thread/start", map[string]any{"cwd": "/"})
	if err != nil || string(res) != `{"ok":true}` {
		t.Fatalf("call = %s, %v", res, err)
	}
	if m := waitMessage(t, c); m.Method != "item/agentMessage/delta" || len(m.ID) != 0 {
		t.Errorf("first queued = %+v, want the delta notification", m)
	}
	if m := waitMessage(t, c); m.Method != "item/commandExecution/requestApproval" || string(m.ID) != "0" {
		t.Errorf("second queued = %+v, want the approval request with id 0", m)
	}
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRPCErrorsAndBadLines(t *testing.T) {
	c, s := newPipeConn(t)
	go func() {
		m := s.recv(t)
		s.send(t, `not json at all`)
		s.send(t, `{"id":999,"result":{}}`)
		s.send(t, `{"jsonrpc":"2.0"}`)
		s.send(t, `{"id":`+jsonNumber(m["id"])+`,"error":{"code":-32600,"message":"already has an active writer"}}`)
	}()
	_, err := c.call(context.Background(), "thread/resume", nil)
	var re *rpcError
	if !errors.As(err, &re) || re.Code != -32600 || !strings.Contains(re.Message, "active writer") {
		t.Fatalf("call error = %v, want the -32600 answer", err)
	}
	for _, want := range []string{"not JSON", "a reply to no request", "neither a request"} {
		m := waitMessage(t, c)
		if m.Bad == nil || !strings.Contains(m.Bad.Error(), want) {
			t.Errorf("bad line reported as %v, want %q", m.Bad, want)
		}
	}
}

func TestRPCCallFailsWhenTheProcessGoes(t *testing.T) {
	c, s := newPipeConn(t)
	go func() {
		s.recv(t)
		s.out.Close() // the app-server dies before answering
	}()
	if _, err := c.call(context.Background(), "turn/start", nil); !errors.Is(err, errClosed) {
		t.Fatalf("call error = %v, want errClosed", err)
	}
	select {
	case <-c.queue.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("done not closed")
	}
	if _, err := c.call(context.Background(), "turn/start", nil); !errors.Is(err, errClosed) {
		t.Fatalf("a call after the end = %v, want errClosed", err)
	}
}
