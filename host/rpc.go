package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/model"
)

// rpcError is an error answer. Data, when non-nil, is marshalled as the
// error object's data member.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return strconv.Itoa(e.Code) + " " + e.Message }

func errInvalidParams(msg string) *rpcError {
	return &rpcError{Code: model.CodeInvalidParams, Message: msg}
}

func errUnknownSession(sid string) *rpcError {
	return &rpcError{Code: model.CodeUnknownSession, Message: "unknown session " + strconv.Quote(sid)}
}

func errStale(epoch, msg string) *rpcError {
	return &rpcError{Code: model.CodeStaleCursor, Message: msg, Data: map[string]string{"epoch": epoch}}
}

func errRejected(reason, msg string) *rpcError {
	return &rpcError{Code: model.CodeRejected, Message: msg, Data: map[string]string{"reason": reason}}
}

// incoming is one parsed client frame.
type incoming struct {
	id     json.RawMessage // nil for a notification
	method string
	params json.RawMessage
}

var nullID = json.RawMessage("null")

// parseIncoming classifies a text frame. It returns the request, or an
// error answer and the id to answer it with (null when the id is unknown).
// A frame that needs no answer (a client notification, or a response sent
// by the client) gives (nil, nil, nil).
func parseIncoming(raw []byte) (*incoming, json.RawMessage, *rpcError) {
	raw = bytes.TrimSpace(raw)
	if !json.Valid(raw) {
		return nil, nullID, &rpcError{Code: model.CodeParseError, Message: "parse error: the frame is not valid JSON"}
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nullID, &rpcError{Code: model.CodeInvalidRequest, Message: "invalid request: a frame must be one JSON-RPC object (batches are not supported)"}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nullID, &rpcError{Code: model.CodeInvalidRequest, Message: "invalid request: " + err.Error()}
	}
	id, hasID := m["id"]
	if hasID {
		id = bytes.TrimSpace(id)
		if !validID(id) {
			return nil, nullID, &rpcError{Code: model.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: id must be a number, null, or a string of at most %d bytes of UTF-8 without control characters", MaxIDBytes)}
		}
	}
	answerID := id
	if !hasID {
		answerID = nullID
	}
	methodRaw, hasMethod := m["method"]
	if !hasMethod {
		if _, ok := m["result"]; ok {
			return nil, nil, nil // a response from the client: nothing asked it
		}
		if _, ok := m["error"]; ok {
			return nil, nil, nil
		}
		return nil, answerID, &rpcError{Code: model.CodeInvalidRequest, Message: "invalid request: no method"}
	}
	if v, ok := m["jsonrpc"]; !ok || string(bytes.TrimSpace(v)) != `"2.0"` {
		if !hasID {
			return nil, nil, nil
		}
		return nil, answerID, &rpcError{Code: model.CodeInvalidRequest, Message: `invalid request: jsonrpc must be "2.0"`}
	}
	var method string
	if err := json.Unmarshal(methodRaw, &method); err != nil || method == "" {
		if !hasID {
			return nil, nil, nil
		}
		return nil, answerID, &rpcError{Code: model.CodeInvalidRequest, Message: "invalid request: method must be a non-empty string"}
	}
	if !hasID {
		return nil, nil, nil // client notifications are not part of protocol 1: ignored
	}
	params := bytes.TrimSpace(m["params"])
	if len(params) > 0 && string(params) != "null" && params[0] != '{' {
		return nil, answerID, errInvalidParams("invalid params: params must be an object")
	}
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	return &incoming{id: id, method: method, params: params}, nil, nil
}

// MaxIDBytes bounds a string request id, as sent (escapes included).
const MaxIDBytes = 256

// validID reports whether a request id may be echoed as sent: a number,
// null, or a string whose raw bytes are valid UTF-8 (encoding/json would
// accept invalid bytes and the answer would echo them), at most
// MaxIDBytes long, and that holds no control character, escaped or not
// (a client printing the id must not print a terminal escape).
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"':
		if len(id) > MaxIDBytes || !utf8.Valid(id) {
			return false
		}
		var s string
		if json.Unmarshal(id, &s) != nil {
			return false
		}
		for _, r := range s {
			if unicode.IsControl(r) || r == utf8.RuneError {
				return false
			}
		}
		return true
	case c == 'n':
		return string(id) == "null"
	case c == '-' || (c >= '0' && c <= '9'):
		var n json.Number
		return json.Unmarshal(id, &n) == nil
	}
	return false
}

// decodeParams unmarshals params into v, turning a type mismatch into an
// invalid-params answer that names the member.
func decodeParams(params json.RawMessage, v any) *rpcError {
	if err := json.Unmarshal(params, v); err != nil {
		var te *json.UnmarshalTypeError
		if ok := asTypeErr(err, &te); ok && te.Field != "" {
			return errInvalidParams("invalid params: " + te.Field + " must be " + te.Type.String())
		}
		return errInvalidParams("invalid params: " + err.Error())
	}
	return nil
}

func asTypeErr(err error, out **json.UnmarshalTypeError) bool {
	var te *json.UnmarshalTypeError
	ok := errors.As(err, &te)
	if ok {
		*out = te
	}
	return ok
}

// rawAppender is a result that encodes itself, trusted to be valid JSON.
type rawAppender interface{ AppendJSON(dst []byte) []byte }

// responseFrame encodes a result or error answer.
func responseFrame(id json.RawMessage, result any, rerr *rpcError) []byte {
	if id == nil {
		id = nullID
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	if rerr != nil {
		e, err := json.Marshal(rerr)
		if err != nil {
			e, _ = json.Marshal(&rpcError{Code: rerr.Code, Message: rerr.Message})
		}
		b.WriteString(`,"error":`)
		b.Write(e)
	} else if a, ok := result.(rawAppender); ok {
		b.WriteString(`,"result":`)
		b.Write(a.AppendJSON(nil))
	} else {
		r, err := json.Marshal(result)
		if err != nil {
			r, _ = json.Marshal(&rpcError{Code: codeInternalError, Message: "internal error: " + err.Error()})
			b.WriteString(`,"error":`)
			b.Write(r)
			b.WriteByte('}')
			return b.Bytes()
		}
		b.WriteString(`,"result":`)
		b.Write(r)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// notificationFrame encodes a host notification around its params.
func notificationFrame(method string, params []byte, emittedAtMs int64) []byte {
	b := make([]byte, 0, len(params)+len(method)+64)
	b = append(b, `{"jsonrpc":"2.0","method":`...)
	b = strconv.AppendQuote(b, method)
	b = append(b, `,"params":`...)
	b = append(b, params...)
	b = append(b, `,"emittedAtMs":`...)
	b = strconv.AppendInt(b, emittedAtMs, 10)
	return append(b, '}')
}
