package claude

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

// maxLineBytes bounds one line of Claude Code's output. Claude Code
// restates a tool's whole result in its user message, so lines can be
// large; a line beyond this is reported and skipped, never buffered whole.
const maxLineBytes = 32 << 20

// message is one line of Claude Code's stream-json output: its type, the
// members the bridge routes by, and the raw line for the type's own
// decoding. Bad is set, with Raw cut short, for a line that is not a JSON
// object with a type.
type message struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	RequestID       string          `json:"request_id"`
	Request         json.RawMessage `json:"request"`
	Event           json.RawMessage `json:"event"`
	Message         json.RawMessage `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	SessionID       string          `json:"session_id"`

	Raw []byte `json:"-"`
	Bad error  `json:"-"`
}

// subagent reports whether the message belongs to a subagent's own
// conversation (a Task tool call running), not to the session's.
func (m *message) subagent() bool { return m.ParentToolUseID != nil && *m.ParentToolUseID != "" }

// controlResponse is the "response" member of a control_response line.
type controlResponse struct {
	Subtype   string          `json:"subtype"`
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response"`
	Error     string          `json:"error"`
}

// controlError is Claude Code's refusal of a control request.
type controlError struct{ msg string }

func (e *controlError) Error() string { return "claude refused the request: " + e.msg }

// errClosed is returned by requests on a connection whose process has gone.
var errClosed = errors.New("claude code's output closed")

// conn speaks Claude Code's stream-json protocol over a child's stdin and
// stdout: user messages and control requests go in; answers to our control
// requests are matched by request id, and every other line is queued, in
// order and unbounded, for one consumer, so a slow consumer never blocks an
// answer it waits for.
//
// Its control requests are named lookout-1, lookout-2, ...; its Queue
// holds every line that is not an answer to us, for the session's
// dispatch goroutine, and is closed when the stream ends.
type conn struct {
	*child.Conn[string, *controlResponse, *message]
}

func newConn(r io.Reader, w io.Writer) *conn {
	c := &conn{child.NewConn[string, *controlResponse, *message](w, errClosed, requestID)}
	go func() {
		// Why the reading ended does not matter: the queue's end says
		// Claude Code has gone, and its exit says how.
		_ = c.Serve(r, maxLineBytes, c.dispatch, func(head []byte) {
			c.Queue.Push(&message{Bad: errLineTooLong, Raw: head})
		})
	}()
	return c
}

var errLineTooLong = fmt.Errorf("a line of Claude Code's output is longer than %d bytes", maxLineBytes)

func (c *conn) dispatch(line []byte) {
	m, err := decodeMessage(line)
	if err != nil {
		c.Queue.Push(&message{Bad: fmt.Errorf("not JSON: %w", err), Raw: []byte(child.Cut(string(line), 200))})
		return
	}
	if m.Type == "" {
		c.Queue.Push(&message{Bad: errors.New("a message without a type"), Raw: []byte(child.Cut(string(line), 200))})
		return
	}
	if m.Type == "control_response" {
		var env struct {
			Response controlResponse `json:"response"`
		}
		if json.Unmarshal(line, &env) == nil {
			// An answer to a request we stopped waiting for is dropped.
			c.Calls.Answer(env.Response.RequestID, &env.Response)
		}
		return
	}
	m.Raw = line
	c.Queue.Push(m)
}

// decodeMessage reads one line's routing members. Claude Code sends a
// line per streamed delta, thousands a second, so they are picked with
// model's member scanner rather than by reflection; a line that is not
// JSON goes to json.Unmarshal, whose error says why.
func decodeMessage(line []byte) (*message, error) {
	m := &message{}
	if !model.ValidJSON(line) {
		return nil, json.Unmarshal(line, m)
	}
	err := model.EachMember(line, func(k, v []byte) error {
		if string(v) == "null" {
			return nil // as json.Unmarshal: nothing set
		}
		str := func(dst *string) error {
			s, ok := model.Unquote(v)
			if !ok {
				return fmt.Errorf("member %s is not a string", k)
			}
			*dst = s
			return nil
		}
		switch {
		case model.KeyIs(k, "type"):
			return str(&m.Type)
		case model.KeyIs(k, "subtype"):
			return str(&m.Subtype)
		case model.KeyIs(k, "request_id"):
			return str(&m.RequestID)
		case model.KeyIs(k, "session_id"):
			return str(&m.SessionID)
		case model.KeyIs(k, "parent_tool_use_id"):
			m.ParentToolUseID = new(string)
			return str(m.ParentToolUseID)
		case model.KeyIs(k, "request"):
			m.Request = v
		case model.KeyIs(k, "event"):
			m.Event = v
		case model.KeyIs(k, "message"):
			m.Message = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// requestID names our seq-th control request.
func requestID(seq int64) string { return "lookout-" + strconv.FormatInt(seq, 10) }

// request sends a control request {subtype, fields...} and returns its
// answer's "response" member. It fails with errClosed when the stream
// ends first, with ctx's error when ctx ends first, or with
// *controlError.
func (c *conn) request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	call, err := c.Calls.Start()
	if err != nil {
		return nil, err
	}
	req := map[string]any{"subtype": subtype}
	for k, v := range fields {
		req[k] = v
	}
	if err := c.Out.Send(map[string]any{"type": "control_request", "request_id": call.ID(), "request": req}); err != nil {
		call.Cancel()
		return nil, err
	}
	r, err := call.Wait(ctx)
	if err != nil {
		return nil, err
	}
	if r.Subtype == "error" {
		return nil, &controlError{msg: r.Error}
	}
	return r.Response, nil
}

// respond answers one of Claude Code's control requests.
func (c *conn) respond(requestID string, response any) error {
	return c.Out.Send(map[string]any{"type": "control_response",
		"response": map[string]any{"subtype": "success", "request_id": requestID, "response": response}})
}

// respondError refuses one of Claude Code's control requests.
func (c *conn) respondError(requestID, msg string) error {
	return c.Out.Send(map[string]any{"type": "control_response",
		"response": map[string]any{"subtype": "error", "request_id": requestID, "error": msg}})
}

// sendUser sends a prompt: one user message, which starts a turn.
func (c *conn) sendUser(text string) error {
	return c.Out.Send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text},
		"parent_tool_use_id": nil, "session_id": ""})
}
