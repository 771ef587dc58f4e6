package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/model"
)

// maxLineBytes bounds one line of app-server output. Codex restates a
// command's whole output in item/completed, so lines can be large; a line
// beyond this is reported and skipped, never buffered whole.
const maxLineBytes = 32 << 20

// message is one line from the app-server: a notification (Method set, ID
// nil), a server-to-client request (Method and ID set), or a reply to one
// of our requests (consumed inside rpcConn, never queued). Bad is set, with
// Raw, for a line that is not a JSON-RPC message.
type message struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`

	Bad error  `json:"-"`
	Raw string `json:"-"`
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("codex answered %d: %s", e.Code, e.Message) }

// errClosed is returned by calls on a connection whose process has gone.
var errClosed = errors.New("codex app-server connection closed")

// rpcConn speaks Codex's JSON-RPC dialect (JSON lines, no "jsonrpc"
// member) over a child's stdin and stdout. Replies are matched to calls;
// everything else is queued, in order and unbounded, for one consumer, so
// a slow consumer never blocks a reply it is waiting for.
//
// Its calls are numbered 1, 2, ...; its Queue holds every message that is
// not a reply, for the thread's dispatch goroutine, and is closed when
// the stream ends.
type rpcConn struct {
	*child.Conn[int64, *message, *message]
}

func newRPCConn(r io.Reader, w io.Writer) *rpcConn {
	c := &rpcConn{child.NewConn[int64, *message, *message](w, errClosed, func(seq int64) int64 { return seq })}
	go func() {
		// Why the reading ended does not matter: the queue's end says the
		// app-server has gone, and its exit says how.
		_ = c.Serve(r, maxLineBytes, c.dispatch, func(head []byte) {
			c.Queue.Push(&message{Bad: errLineTooLong, Raw: string(head)})
		})
	}()
	return c
}

var errLineTooLong = fmt.Errorf("a line of app-server output is longer than %d bytes", maxLineBytes)

func (c *rpcConn) dispatch(line []byte) {
	m, err := decodeMessage(line)
	if err != nil {
		c.Queue.Push(&message{Bad: fmt.Errorf("not JSON: %w", err), Raw: child.Cut(string(line), 200)})
		return
	}
	if m.Method == "" {
		if len(m.ID) == 0 || (m.Result == nil && m.Error == nil) {
			c.Queue.Push(&message{Bad: errors.New("neither a request, a notification nor a reply"), Raw: child.Cut(string(line), 200)})
			return
		}
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil || !c.Calls.Answer(id, m) {
			c.Queue.Push(&message{Bad: errors.New("a reply to no request of ours"), Raw: child.Cut(string(line), 200)})
		}
		return
	}
	c.Queue.Push(m)
}

// decodeMessage reads one line as a message. The app-server sends
// thousands of lines a second while it streams, so the envelope is picked
// with model's member scanner rather than by reflection; a line that is
// not a JSON object goes to json.Unmarshal, whose error says why.
func decodeMessage(line []byte) (*message, error) {
	m := &message{}
	if !model.ValidJSON(line) {
		return nil, json.Unmarshal(line, m)
	}
	err := model.EachMember(line, func(k, v []byte) error {
		switch {
		case model.KeyIs(k, "method"):
			s, ok := model.Unquote(v)
			if !ok {
				return errors.New("method is not a string")
			}
			m.Method = s
		case model.KeyIs(k, "id"):
			m.ID = nullable(v)
		case model.KeyIs(k, "params"):
			m.Params = nullable(v)
		case model.KeyIs(k, "result"):
			m.Result = nullable(v)
		case model.KeyIs(k, "error"):
			if string(v) != "null" {
				m.Error = &rpcError{}
				return json.Unmarshal(v, m.Error)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// nullable is a member's raw value as json.Unmarshal leaves it in a
// json.RawMessage: null included, copied out of the line.
func nullable(v []byte) json.RawMessage { return append(json.RawMessage(nil), v...) }

// call sends a request and returns its result. It fails with errClosed
// when the stream ends first, with ctx's error when ctx ends first, or
// with *rpcError.
func (c *rpcConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	call, err := c.Calls.Start()
	if err != nil {
		return nil, err
	}
	if err := c.Out.Send(map[string]any{"id": call.ID(), "method": method, "params": params}); err != nil {
		call.Cancel()
		return nil, err
	}
	m, err := call.Wait(ctx)
	if err != nil {
		return nil, err
	}
	if m.Error != nil {
		return nil, m.Error
	}
	return m.Result, nil
}

// notify sends a notification.
func (c *rpcConn) notify(method string, params any) error {
	msg := map[string]any{"method": method}
	if params != nil {
		msg["params"] = params
	}
	return c.Out.Send(msg)
}

// reply answers a server-to-client request.
func (c *rpcConn) reply(id json.RawMessage, result any) error {
	return c.Out.Send(map[string]any{"id": id, "result": result})
}

// replyError refuses a server-to-client request.
func (c *rpcConn) replyError(id json.RawMessage, code int, msg string) error {
	return c.Out.Send(map[string]any{"id": id, "error": rpcError{Code: code, Message: msg}})
}
