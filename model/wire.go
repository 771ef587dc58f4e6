package model

import (
	"encoding/json"
	"strconv"
)

// Frame is any JSON-RPC message read from the wire: a notification (Method
// set, ID nil) or a response (ID set).
type Frame struct {
	JSONRPC     string          `json:"jsonrpc"`
	ID          json.RawMessage `json:"id,omitempty"`
	Method      string          `json:"method,omitempty"`
	Params      json.RawMessage `json:"params,omitempty"`
	Result      json.RawMessage `json:"result,omitempty"`
	Error       *RPCError       `json:"error,omitempty"`
	EmittedAtMs int64           `json:"emittedAtMs,omitempty"`

	// valid: ParseFrame checked the whole frame (Params included) is JSON,
	// so decoding its params need not check again.
	valid bool
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return e.Message }

// IsResponse reports whether the frame answers a request.
func (f *Frame) IsResponse() bool {
	return f.Method == "" && (len(f.ID) > 0 || f.Error != nil || f.Result != nil)
}

// ParseFrame parses one wire frame as a JSON-RPC message. A frame that is
// not a JSON object, or has neither a method nor an id, is an
// upstream_frame_error. The Frame's raw members alias raw: do not reuse the
// buffer while the Frame (or an Event decoded from it) is in use.
func ParseFrame(raw []byte) (*Frame, error) {
	if !validJSON(raw) {
		return nil, frameErr("", "malformed frame: not valid JSON")
	}
	f, err := parseValidFrame(raw)
	if f != nil {
		f.valid = true
	}
	return f, err
}

func parseValidFrame(raw []byte) (*Frame, error) {
	var f Frame
	var ferr error
	err := eachMember(raw, func(k, v []byte) error {
		switch {
		case keyIs(k, "jsonrpc"):
			f.JSONRPC, _ = unquote(v)
		case keyIs(k, "id"):
			f.ID = v
		case keyIs(k, "method"):
			m, ok := unquote(v)
			if !ok {
				ferr = frameErr("", "method is not a string")
			}
			f.Method = m
		case keyIs(k, "params"):
			f.Params = v
		case keyIs(k, "result"):
			f.Result = v
		case keyIs(k, "error"):
			if string(v) == "null" {
				return nil
			}
			var e RPCError
			if json.Unmarshal(v, &e) != nil {
				ferr = frameErr("", "error is not a JSON-RPC error object")
			}
			f.Error = &e
		case keyIs(k, "emittedAtMs"):
			if n, ok := parseInt(v); ok {
				f.EmittedAtMs = n
			} else if x, err := strconv.ParseFloat(string(v), 64); err == nil {
				f.EmittedAtMs = int64(x)
			}
		}
		return nil
	})
	if err != nil {
		return nil, frameErr("", "malformed frame: not a JSON object")
	}
	if ferr != nil {
		return nil, ferr
	}
	if f.Method == "" && len(f.ID) == 0 && f.Error == nil {
		return nil, frameErr("", "frame is neither a notification nor a response")
	}
	return &f, nil
}

// Page is the result of a view/page request.
type Page struct {
	Epoch       string        `json:"epoch"`
	Events      []PageElement `json:"events"`
	StartCursor string        `json:"startCursor"`
	EndCursor   string        `json:"endCursor"`
	HasNewer    bool          `json:"hasNewer"`
	HasOlder    bool          `json:"hasOlder"`
}

// MarshalJSON encodes the page. The events' params are written as they are
// (they are already JSON), so encoding a large page costs one copy.
func (p *Page) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil), nil }

// AppendJSON appends the page's JSON encoding to dst.
func (p *Page) AppendJSON(dst []byte) []byte {
	if dst == nil {
		size := 256
		for _, e := range p.Events {
			size += len(e.Params) + len(e.Method) + 32
		}
		dst = make([]byte, 0, size)
	}
	dst = append(dst, `{"epoch":`...)
	dst = appendString(dst, p.Epoch)
	dst = append(dst, `,"events":[`...)
	for i, e := range p.Events {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"method":`...)
		dst = appendString(dst, e.Method)
		dst = append(dst, `,"params":`...)
		if len(e.Params) == 0 {
			dst = append(dst, "null"...)
		} else {
			dst = append(dst, e.Params...)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `],"startCursor":`...)
	dst = appendString(dst, p.StartCursor)
	dst = append(dst, `,"endCursor":`...)
	dst = appendString(dst, p.EndCursor)
	dst = append(dst, `,"hasNewer":`...)
	dst = strconv.AppendBool(dst, p.HasNewer)
	dst = append(dst, `,"hasOlder":`...)
	dst = strconv.AppendBool(dst, p.HasOlder)
	return append(dst, '}')
}

// JSON-RPC error codes of protocol version 1 (docs/protocol.md, 4. Requests).
const (
	CodeParseError     = -32700 // the frame is not JSON
	CodeInvalidRequest = -32600 // not a JSON-RPC request
	CodeMethodNotFound = -32601 // unknown method
	CodeInvalidParams  = -32602 // params of the wrong shape
	CodeBackpressured  = -32001 // nothing admitted: retry later with the same commandId
	CodeUnknownSession = -32004 // no such session
	CodeRejected       = -32010 // durable: the command will never run (data.reason)
	CodeStaleCursor    = -32020 // the cursor's epoch is gone (data.epoch): resubscribe
)
