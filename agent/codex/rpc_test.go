package codex

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// newPipeConn is an rpcConn whose app-server is the test (see
// agenttest.Pipe).
func newPipeConn(t *testing.T) (*rpcConn, *agenttest.Pipe) {
	t.Helper()
	r, w, s := agenttest.NewPipe(t)
	return newRPCConn(r, w), s
}

func waitMessage(t *testing.T, c *rpcConn) *message {
	t.Helper()
	return agenttest.WaitQueued(t, c.Queue)
}

func TestRPCCallsGetTheirRepliesPastQueuedNotifications(t *testing.T) {
	c, s := newPipeConn(t)
	go func() {
		m := s.Recv(t)
		// A notification and a server request arrive before the reply.
		s.Send(t, `{"method":"item/agentMessage/delta","params":{"delta":"a"}}`)
		s.Send(t, `{"id":0,"method":"item/commandExecution/requestApproval","params":{}}`)
		s.Send(t, `{"id":`+jsonNumber(m["id"])+`,"result":{"ok":true}}`)
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
		m := s.Recv(t)
		s.Send(t, `not json at all`)
		s.Send(t, `{"id":999,"result":{}}`)
		s.Send(t, `{"jsonrpc":"2.0"}`)
		s.Send(t, `{"id":`+jsonNumber(m["id"])+`,"error":{"code":-32600,"message":"already has an active writer"}}`)
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
		s.Recv(t)
		s.Close() // the app-server dies before answering
	}()
	if _, err := c.call(context.Background(), "turn/start", nil); !errors.Is(err, errClosed) {
		t.Fatalf("call error = %v, want errClosed", err)
	}
	select {
	case <-c.Queue.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("done not closed")
	}
	if _, err := c.call(context.Background(), "turn/start", nil); !errors.Is(err, errClosed) {
		t.Fatalf("a call after the end = %v, want errClosed", err)
	}
}

// decodeMessage reads what json.Unmarshal would, from every kind of line.
func TestDecodeMessageAgreesWithUnmarshal(t *testing.T) {
	for _, line := range []string{
		`{"method":"item/agentMessage/delta","params":{"threadId":"t","itemId":"i","delta":"h\u00e9\n\"x\""}}`,
		`{"id":7,"result":{"thread":{"id":"t"}}}`,
		`{"id":7,"result":null}`,
		`{"id":8,"error":{"code":-32600,"message":"no"}}`,
		`{"id":9,"method":"item/commandExecution/requestApproval","params":{"command":"ls"}}`,
		`  {"method":"turn/started","params":{},"extra":[1,{"a":"}"}]}  `,
		`{"method":"m","id":null,"params":null,"error":null}`,
	} {
		got, err := decodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		var want message
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if got.Method != want.Method || string(got.ID) != string(want.ID) || string(got.Params) != string(want.Params) ||
			string(got.Result) != string(want.Result) || (got.Error == nil) != (want.Error == nil) ||
			(got.Error != nil && *got.Error != *want.Error) {
			t.Fatalf("%s: decoded %+v, json.Unmarshal %+v", line, got, want)
		}
	}
	for _, bad := range []string{`not json`, `{"method":3}`, `{"method":"m"`, `[1,2]`, `{"error":"nope"}`} {
		if _, err := decodeMessage([]byte(bad)); err == nil {
			t.Fatalf("%s decoded", bad)
		}
	}
}

func TestDecodeDelta(t *testing.T) {
	p, err := decodeDelta(json.RawMessage(`{"itemId":"i","delta":"a\u0062","summaryIndex":2,"other":{"x":1}}`))
	if err != nil || p.ItemID != "i" || p.Delta != "ab" || p.SummaryIndex == nil || *p.SummaryIndex != 2 {
		t.Fatalf("%+v %v", p, err)
	}
	if p, err := decodeDelta(json.RawMessage(`{"itemId":"i","delta":"x","summaryIndex":null}`)); err != nil || p.SummaryIndex != nil {
		t.Fatalf("null summaryIndex: %+v %v", p, err)
	}
	for _, bad := range []string{`{"itemId":1}`, `{"delta":["x"]}`, `{"summaryIndex":"2"}`} {
		if _, err := decodeDelta(json.RawMessage(bad)); err == nil {
			t.Fatalf("%s decoded", bad)
		}
	}
}
