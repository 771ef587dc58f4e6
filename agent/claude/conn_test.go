package claude

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

// fakeClaudeEnd is Claude Code's side of a conn: it reads what the conn
// writes and writes lines back.
type fakeClaudeEnd struct {
	in  *bufio.Scanner // what the bridge sent
	out io.WriteCloser // what the bridge reads
}

func newPipeConn(t *testing.T) (*conn, *fakeClaudeEnd) {
	t.Helper()
	cr, sw := io.Pipe() // claude -> bridge
	sr, cw := io.Pipe() // bridge -> claude
	c := newConn(cr, cw)
	t.Cleanup(func() { sw.Close(); cw.Close() })
	return c, &fakeClaudeEnd{in: bufio.NewScanner(sr), out: sw}
}

func (s *fakeClaudeEnd) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.out, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *fakeClaudeEnd) recv(t *testing.T) map[string]any {
	t.Helper()
	if !s.in.Scan() {
		t.Fatal("the bridge sent nothing")
	}
	var m map[string]any
	if err := json.Unmarshal(s.in.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func waitMessage(t *testing.T, c *conn) *message {
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

func TestControlRequestsAreMatchedToTheirAnswers(t *testing.T) {
	c, claude := newPipeConn(t)
	type answer struct {
		res json.RawMessage
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := c.request(context.Background(), "initialize", map[string]any{"hooks": nil})
		got <- answer{res, err}
	}()
	req := claude.recv(t)
	if req["type"] != "control_request" || req["request"].(map[string]any)["subtype"] != "initialize" {
		t.Fatalf("sent %v", req)
	}
	id := req["request_id"].(string)
	// Other lines first: they are queued, the answer is not.
	claude.send(t, `{"type":"system","subtype":"init","session_id":"s"}`)
	claude.send(t, `{"type":"control_response","response":{"subtype":"success","request_id":"someone-else","response":{}}}`)
	claude.send(t, `{"type":"control_response","response":{"subtype":"success","request_id":"`+id+`","response":{"pid":7}}}`)
	a := <-got
	if a.err != nil || string(a.res) != `{"pid":7}` {
		t.Fatalf("answer %s %v", a.res, a.err)
	}
	if m := waitMessage(t, c); m.Type != "system" || m.Subtype != "init" || m.SessionID != "s" {
		t.Errorf("queued %+v", m)
	}
	if m, ok := c.queue.Next(); ok {
		t.Errorf("an answer to no request of ours was queued: %s", m.Raw)
	}

	go func() {
		_, err := c.request(context.Background(), "interrupt", nil)
		got <- answer{nil, err}
	}()
	id = claude.recv(t)["request_id"].(string)
	claude.send(t, `{"type":"control_response","response":{"subtype":"error","request_id":"`+id+`","error":"no turn"}}`)
	var ce *controlError
	if a := <-got; !errors.As(a.err, &ce) || !strings.Contains(a.err.Error(), "no turn") {
		t.Errorf("refusal = %v", a.err)
	}
}

func TestAnswersAndPromptsAreStreamJSON(t *testing.T) {
	c, claude := newPipeConn(t)
	go func() {
		c.respond("r1", map[string]any{"behavior": "allow"})
		c.respondError("r2", "cannot")
		c.sendUser("hello")
	}()
	if m := claude.recv(t); m["type"] != "control_response" || m["response"].(map[string]any)["request_id"] != "r1" ||
		m["response"].(map[string]any)["subtype"] != "success" || m["response"].(map[string]any)["response"].(map[string]any)["behavior"] != "allow" {
		t.Errorf("allow = %v", m)
	}
	if m := claude.recv(t); m["response"].(map[string]any)["subtype"] != "error" || m["response"].(map[string]any)["error"] != "cannot" {
		t.Errorf("refusal = %v", m)
	}
	if m := claude.recv(t); m["type"] != "user" || m["message"].(map[string]any)["content"] != "hello" || m["message"].(map[string]any)["role"] != "user" {
		t.Errorf("prompt = %v", m)
	}
}

func TestUnreadableLinesAreQueuedAsBad(t *testing.T) {
	c, claude := newPipeConn(t)
	claude.send(t, `not json at all`)
	claude.send(t, `{"subtype":"no type"}`)
	claude.send(t, ``)
	claude.send(t, `{"type":"result","subtype":"success"}`)
	for _, want := range []string{"not JSON", "without a type"} {
		m := waitMessage(t, c)
		if m.Bad == nil || !strings.Contains(m.Bad.Error(), want) || len(m.Raw) == 0 {
			t.Errorf("got %+v, want a bad line (%s)", m, want)
		}
	}
	if m := waitMessage(t, c); m.Bad != nil || m.Type != "result" {
		t.Errorf("the next good line: %+v", m)
	}
}

func TestRequestsFailWhenClaudeIsGone(t *testing.T) {
	c, claude := newPipeConn(t)
	got := make(chan error, 1)
	go func() {
		_, err := c.request(context.Background(), "initialize", nil)
		got <- err
	}()
	claude.recv(t)
	claude.out.Close()
	if err := <-got; !errors.Is(err, errClosed) {
		t.Errorf("pending request: %v", err)
	}
	<-c.queue.Done()
	if _, err := c.request(context.Background(), "interrupt", nil); !errors.Is(err, errClosed) {
		t.Errorf("request after the end: %v", err)
	}
}

func TestARequestStopsWaitingWithItsContext(t *testing.T) {
	c, claude := newPipeConn(t)
	go func() { claude.in.Scan() }() // read the request, never answer it
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.request(ctx, "interrupt", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("unanswered request: %v", err)
	}
	if n := c.calls.Waiting(); n != 0 {
		t.Errorf("%d requests still pending", n)
	}
}
