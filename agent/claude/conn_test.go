package claude

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// newPipeConn is a conn whose Claude Code is the test (see
// agenttest.Pipe).
func newPipeConn(t *testing.T) (*conn, *agenttest.Pipe) {
	t.Helper()
	r, w, claude := agenttest.NewPipe(t)
	return newConn(r, w), claude
}

func waitMessage(t *testing.T, c *conn) *message {
	t.Helper()
	return agenttest.WaitQueued(t, c.Queue)
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
	req := claude.Recv(t)
	if req["type"] != "control_request" || req["request"].(map[string]any)["subtype"] != "initialize" {
		t.Fatalf("sent %v", req)
	}
	id := req["request_id"].(string)
	// Other lines first: they are queued, the answer is not.
	claude.Send(t, `{"type":"system","subtype":"init","session_id":"s"}`)
	claude.Send(t, `{"type":"control_response","response":{"subtype":"success","request_id":"someone-else","response":{}}}`)
	claude.Send(t, `{"type":"control_response","response":{"subtype":"success","request_id":"`+id+`","response":{"pid":7}}}`)
	a := <-got
	if a.err != nil || string(a.res) != `{"pid":7}` {
		t.Fatalf("answer %s %v", a.res, a.err)
	}
	if m := waitMessage(t, c); m.Type != "system" || m.Subtype != "init" || m.SessionID != "s" {
		t.Errorf("queued %+v", m)
	}
	if m, ok := c.Queue.Next(); ok {
		t.Errorf("an answer to no request of ours was queued: %s", m.Raw)
	}

	go func() {
		_, err := c.request(context.Background(), "interrupt", nil)
		got <- answer{nil, err}
	}()
	id = claude.Recv(t)["request_id"].(string)
	claude.Send(t, `{"type":"control_response","response":{"subtype":"error","request_id":"`+id+`","error":"no turn"}}`)
	var ce *controlError
	if a := <-got; !errors.As(a.err, &ce) || !strings.Contains(a.err.Error(), "no turn") {
		t.Errorf("refusal = %v", a.err)
	}
}

func TestAnswersAndPromptsAreStreamJSON(t *testing.T) {
	c, claude := newPipeConn(t)
	go func() {
		for _, err := range []error{
			c.respond("r1", map[string]any{"behavior": "allow"}),
			c.respondError("r2", "cannot"),
			c.sendUser("hello"),
		} {
			if err != nil {
				t.Error(err)
			}
		}
	}()
	if m := claude.Recv(t); m["type"] != "control_response" || m["response"].(map[string]any)["request_id"] != "r1" ||
		m["response"].(map[string]any)["subtype"] != "success" || m["response"].(map[string]any)["response"].(map[string]any)["behavior"] != "allow" {
		t.Errorf("allow = %v", m)
	}
	if m := claude.Recv(t); m["response"].(map[string]any)["subtype"] != "error" || m["response"].(map[string]any)["error"] != "cannot" {
		t.Errorf("refusal = %v", m)
	}
	if m := claude.Recv(t); m["type"] != "user" || m["message"].(map[string]any)["content"] != "hello" || m["message"].(map[string]any)["role"] != "user" {
		t.Errorf("prompt = %v", m)
	}
}

func TestUnreadableLinesAreQueuedAsBad(t *testing.T) {
	c, claude := newPipeConn(t)
	claude.Send(t, `not json at all`)
	claude.Send(t, `{"subtype":"no type"}`)
	claude.Send(t, ``)
	claude.Send(t, `{"type":"result","subtype":"success"}`)
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
	claude.Recv(t)
	claude.Close()
	if err := <-got; !errors.Is(err, errClosed) {
		t.Errorf("pending request: %v", err)
	}
	<-c.Queue.Done()
	if _, err := c.request(context.Background(), "interrupt", nil); !errors.Is(err, errClosed) {
		t.Errorf("request after the end: %v", err)
	}
}

func TestARequestStopsWaitingWithItsContext(t *testing.T) {
	c, claude := newPipeConn(t)
	go func() { _, _ = claude.Read() }() // read the request, never answer it
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.request(ctx, "interrupt", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("unanswered request: %v", err)
	}
	if n := c.Calls.Waiting(); n != 0 {
		t.Errorf("%d requests still pending", n)
	}
}

// decodeMessage reads what json.Unmarshal would, from every kind of line.
func TestDecodeMessageAgreesWithUnmarshal(t *testing.T) {
	for _, line := range []string{
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"h\u00e9\n"}},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}`,
		`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash"}}`,
		`{"type":"assistant","message":{"id":"m","content":[]},"parent_tool_use_id":"toolu_1","session_id":"s"}`,
		`{"type":"result","subtype":"success","session_id":"s","extra":[{"a":"}"}]}`,
		` {"type":"system","subtype":null} `,
	} {
		got, err := decodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		var want message
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if got.Type != want.Type || got.Subtype != want.Subtype || got.RequestID != want.RequestID || got.SessionID != want.SessionID ||
			string(got.Request) != string(want.Request) || string(got.Event) != string(want.Event) || string(got.Message) != string(want.Message) ||
			(got.ParentToolUseID == nil) != (want.ParentToolUseID == nil) || (got.ParentToolUseID != nil && *got.ParentToolUseID != *want.ParentToolUseID) {
			t.Fatalf("%s: decoded %+v, json.Unmarshal %+v", line, got, want)
		}
	}
	for _, bad := range []string{`nope`, `{"type":1}`, `{"type":"x"`} {
		if _, err := decodeMessage([]byte(bad)); err == nil {
			t.Fatalf("%s decoded", bad)
		}
	}
}

// decodeBlockDelta reads a content_block_delta as json.Unmarshal would,
// and leaves every other event to it.
func TestDecodeBlockDelta(t *testing.T) {
	for _, raw := range []string{
		`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"a\"b"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}`,
	} {
		var got, want streamEvent
		if !decodeBlockDelta([]byte(raw), &got) {
			t.Fatalf("%s: not decoded", raw)
		}
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if got.Type != want.Type || got.Index != want.Index || got.Delta != want.Delta {
			t.Fatalf("%s: decoded %+v, json.Unmarshal %+v", raw, got, want)
		}
	}
	for _, other := range []string{
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":"0","delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":null}}`,
	} {
		var ev streamEvent
		if decodeBlockDelta([]byte(other), &ev) {
			t.Fatalf("%s decoded by the fast path", other)
		}
	}
}
