package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Notification methods of protocol version 1.
const (
	MethodItemStarted       = "item/started"
	MethodItemUpdated       = "item/updated"
	MethodItemCompleted     = "item/completed"
	MethodItemDelta         = "item/delta"
	MethodTurnQueued        = "turn/queued"
	MethodTurnUnqueued      = "turn/unqueued"
	MethodTurnStarted       = "turn/started"
	MethodTurnCompleted     = "turn/completed"
	MethodApprovalRequested = "approval/requested"
	MethodApprovalResolved  = "approval/resolved"
	MethodSessionState      = "session/state"
	MethodWarning           = "warning"
	// MethodHeartbeat is an optional keep-alive notification a host may
	// send; it carries nothing and folds to no change.
	MethodHeartbeat = "heartbeat"
)

// IsDurable reports whether method names a durable (journaled) event, and
// known whether it is a method of the protocol at all.
func IsDurable(method string) (durable, known bool) {
	switch method {
	case MethodItemStarted, MethodItemUpdated, MethodItemCompleted,
		MethodTurnQueued, MethodTurnUnqueued, MethodTurnStarted, MethodTurnCompleted,
		MethodApprovalRequested, MethodApprovalResolved, MethodSessionState:
		return true, true
	case MethodItemDelta, MethodWarning, MethodHeartbeat:
		return false, true
	}
	return false, false
}

// Event is one decoded session notification. Params holds the params
// object verbatim (it is what a paged read or `watch --json` prints); the
// typed members hold what the fold needs, by method.
type Event struct {
	Method      string
	SessionID   string
	Seq         int64 // from viewCursor
	Durable     bool
	PrevSeq     int64 // from prevCursor (durable only); 0 when null
	EmittedAtMs int64
	Params      json.RawMessage

	Item *Item // item/started, item/updated, item/completed

	ItemID string // item/delta, approval/requested
	Field  string // item/delta (default "text")
	Delta  string // item/delta

	TurnID    string     // turn/*, approval/requested, warning
	CommandID string     // turn/queued, turn/unqueued, turn/started
	Text      string     // turn/queued
	QueuePos  int64      // turn/queued position (-1 when absent)
	Reason    string     // turn/unqueued
	StartedAt string     // turn/started
	Status    string     // turn/completed
	TurnError *TurnError // turn/completed

	ApprovalID string // approval/requested, approval/resolved
	Decision   string // approval/resolved

	Values map[string]json.RawMessage // session/state: the values by name

	Warning *Warning // warning
}

// TurnError is the error of a failed turn.
type TurnError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Warning is a transient model-request diagnostic. It is never part of the
// transcript history.
type Warning struct {
	RequestKind string `json:"requestKind"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	Retryable   bool   `json:"retryable"`
	Attempt     int    `json:"attempt"`
	MaxAttempts int    `json:"maxAttempts"`
	WillRetry   bool   `json:"willRetry"`
	TurnID      string `json:"turnId,omitempty"`
	Seq         int64  `json:"-"`
}

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
	if !json.Valid(raw) {
		return nil, frameErr("", "malformed frame: not valid JSON")
	}
	return parseValidFrame(raw)
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

// DecodeFrame decodes a wire frame holding a session notification. On
// error the Event is nil, except for an unknown method whose params carry a
// valid cursor (see State.Pass).
func DecodeFrame(raw []byte) (*Event, error) {
	f, err := ParseFrame(raw)
	if err != nil {
		return nil, err
	}
	if f.Method == "" {
		return nil, frameErr("", "frame is a response, not a notification")
	}
	ev, err := decodeNotification(f.Method, f.Params, true)
	if ev != nil {
		ev.EmittedAtMs = f.EmittedAtMs
	}
	return ev, err
}

// wireParams is the union of every notification's params, as raw members.
type wireParams struct {
	SessionID, ViewCursor                      *string
	PrevCursor, Item, TurnID, CommandID, Text  json.RawMessage
	Position, Reason, StartedAt, Status, Error json.RawMessage
	ApprovalID, Decision, ItemID               json.RawMessage
}

// scan picks the members out of params (valid JSON).
func (p *wireParams) scan(params []byte) error {
	var bad error
	err := eachMember(params, func(k, v []byte) error {
		if len(k) < 3 {
			return nil
		}
		switch string(k[1 : len(k)-1]) {
		case "sessionId", "viewCursor":
			s, ok := unquote(v)
			if !ok {
				bad = fmt.Errorf("%s is not a string", k)
				return nil
			}
			if k[1] == 's' {
				p.SessionID = &s
			} else {
				p.ViewCursor = &s
			}
		case "prevCursor":
			p.PrevCursor = v
		case "item":
			p.Item = v
		case "itemId":
			p.ItemID = v
		case "turnId":
			p.TurnID = v
		case "commandId":
			p.CommandID = v
		case "text":
			p.Text = v
		case "position":
			p.Position = v
		case "reason":
			p.Reason = v
		case "startedAt":
			p.StartedAt = v
		case "status":
			p.Status = v
		case "error":
			p.Error = v
		case "approvalId":
			p.ApprovalID = v
		case "decision":
			p.Decision = v
		}
		return nil
	})
	if err != nil {
		return errors.New("params is not an object")
	}
	return bad
}

// decodeDelta decodes item/delta params (valid JSON) on a fast path.
func decodeDelta(ev *Event, params []byte) (*Event, error) {
	var sidRaw, curRaw, itemRaw, fieldRaw, deltaRaw []byte
	if eachMember(params, func(k, v []byte) error {
		switch {
		case keyIs(k, "sessionId"):
			sidRaw = v
		case keyIs(k, "viewCursor"):
			curRaw = v
		case keyIs(k, "itemId"):
			itemRaw = v
		case keyIs(k, "field"):
			fieldRaw = v
		case keyIs(k, "delta"):
			deltaRaw = v
		}
		return nil
	}) != nil {
		return nil, frameErr(ev.Method, "params is not an object")
	}
	str := func(raw []byte, name string) (*string, error) {
		if raw == nil {
			return nil, nil
		}
		s, ok := unquote(raw)
		if !ok {
			return nil, frameErr(ev.Method, "unknown delta shape: %q is not a string", name)
		}
		return &s, nil
	}
	sessionID, err := str(sidRaw, "sessionId")
	if err != nil {
		return nil, err
	}
	cursor, err := str(curRaw, "viewCursor")
	if err != nil {
		return nil, err
	}
	if err := ev.setCursor(sessionID, cursor); err != nil {
		return nil, err
	}
	itemID, err := str(itemRaw, "itemId")
	if err != nil {
		return nil, err
	}
	if itemID == nil || *itemID == "" {
		return nil, frameErr(ev.Method, "unknown delta shape: no itemId")
	}
	d, err := str(deltaRaw, "delta")
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, frameErr(ev.Method, "unknown delta shape: no string delta")
	}
	field, err := str(fieldRaw, "field")
	if err != nil {
		return nil, err
	}
	ev.ItemID, ev.Delta, ev.Field = *itemID, *d, "text"
	if field != nil {
		ev.Field = *field
	}
	if ev.Field == "" {
		return nil, frameErr(ev.Method, "unknown delta shape: empty field")
	}
	return ev, nil
}

// envelopeKeys are the params members that are routing, not session state.
var envelopeKeys = map[string]bool{"sessionId": true, "viewCursor": true, "prevCursor": true}

// DecodeNotification decodes a notification's method and params into an
// Event. Unknown methods, missing or wrong-typed members and unknown delta
// shapes are upstream_frame_errors; on error the Event is nil except for an
// unknown method with a valid cursor (see State.Pass).
func DecodeNotification(method string, params json.RawMessage) (*Event, error) {
	return decodeNotification(method, params, false)
}

func decodeNotification(method string, params json.RawMessage, valid bool) (*Event, error) {
	durable, known := IsDurable(method)
	params = bytes.TrimSpace(params)
	if !valid && len(params) > 0 && !json.Valid(params) {
		return nil, frameErr(method, "params are not valid JSON")
	}
	if method == MethodHeartbeat {
		return &Event{Method: method, Params: params}, nil
	}
	if !known {
		return unknownMethod(method, params)
	}
	if len(params) == 0 || params[0] != '{' {
		return nil, frameErr(method, "params is not an object")
	}
	ev := &Event{Method: method, Durable: durable, Params: params, QueuePos: -1}
	if method == MethodItemDelta {
		return decodeDelta(ev, params)
	}
	var p wireParams
	if err := p.scan(params); err != nil {
		return nil, frameErr(method, "malformed params: %v", err)
	}
	if err := ev.setCursor(p.SessionID, p.ViewCursor); err != nil {
		return nil, err
	}
	if durable {
		switch prev := bytes.TrimSpace(p.PrevCursor); {
		case len(prev) == 0 || string(prev) == "null":
			ev.PrevSeq = 0
		default:
			var s string
			if json.Unmarshal(prev, &s) != nil {
				return nil, frameErr(method, "prevCursor is not a string")
			}
			sid, seq, ok := ParseCursor(s)
			if !ok || sid != ev.SessionID {
				return nil, frameErr(method, "malformed prevCursor %q", s)
			}
			ev.PrevSeq = seq
		}
	}
	var err error
	str := func(raw json.RawMessage, name string, required bool) string {
		if err != nil {
			return ""
		}
		if len(raw) == 0 || string(raw) == "null" {
			if required {
				err = frameErr(method, "params lack %q", name)
			}
			return ""
		}
		s, ok := unquote(raw)
		if !ok {
			err = frameErr(method, "params member %q is not a string", name)
		} else if required && s == "" {
			err = frameErr(method, "params member %q is empty", name)
		}
		return s
	}
	switch method {
	case MethodItemStarted, MethodItemUpdated, MethodItemCompleted:
		if len(p.Item) == 0 || string(p.Item) == "null" {
			return nil, frameErr(method, "params lack \"item\"")
		}
		it, ierr := decodeValidItem(p.Item)
		if ierr != nil {
			fe := ierr.(*FoldError)
			fe.Method = method
			return nil, fe
		}
		ev.Item = it
	case MethodTurnQueued:
		ev.TurnID = str(p.TurnID, "turnId", true)
		ev.CommandID = str(p.CommandID, "commandId", false)
		ev.Text = str(p.Text, "text", false)
		if len(p.Position) > 0 && string(p.Position) != "null" {
			if json.Unmarshal(p.Position, &ev.QueuePos) != nil {
				return nil, frameErr(method, "position is not an integer")
			}
		}
	case MethodTurnUnqueued:
		ev.TurnID = str(p.TurnID, "turnId", false)
		ev.CommandID = str(p.CommandID, "commandId", false)
		ev.Reason = str(p.Reason, "reason", false)
		if err == nil && ev.TurnID == "" && ev.CommandID == "" {
			err = frameErr(method, "params lack both turnId and commandId")
		}
	case MethodTurnStarted:
		ev.TurnID = str(p.TurnID, "turnId", true)
		ev.StartedAt = str(p.StartedAt, "startedAt", false)
		ev.CommandID = str(p.CommandID, "commandId", false)
	case MethodTurnCompleted:
		ev.TurnID = str(p.TurnID, "turnId", true)
		ev.Status = str(p.Status, "status", true)
		if len(p.Error) > 0 && string(p.Error) != "null" {
			var te TurnError
			if json.Unmarshal(p.Error, &te) != nil {
				return nil, frameErr(method, "error is not an {code, message} object")
			}
			ev.TurnError = &te
		}
	case MethodApprovalRequested:
		ev.ApprovalID = str(p.ApprovalID, "approvalId", true)
		ev.TurnID = str(p.TurnID, "turnId", false)
		ev.ItemID = str(p.ItemID, "itemId", false)
	case MethodApprovalResolved:
		ev.ApprovalID = str(p.ApprovalID, "approvalId", true)
		ev.Decision = str(p.Decision, "decision", false)
	case MethodSessionState:
		var all map[string]json.RawMessage
		if json.Unmarshal(params, &all) != nil {
			return nil, frameErr(method, "malformed params")
		}
		ev.Values = make(map[string]json.RawMessage, len(all))
		for k, v := range all {
			if !envelopeKeys[k] {
				ev.Values[k] = v
			}
		}
	case MethodWarning:
		var w Warning
		if json.Unmarshal(params, &w) != nil {
			return nil, frameErr(method, "malformed warning params")
		}
		w.Seq = ev.Seq
		ev.Warning = &w
		ev.TurnID = w.TurnID
	}
	if err != nil {
		return nil, err
	}
	return ev, nil
}

func (ev *Event) setCursor(sessionID, viewCursor *string) error {
	if sessionID == nil || *sessionID == "" {
		return frameErr(ev.Method, "params lack \"sessionId\"")
	}
	if viewCursor == nil {
		return frameErr(ev.Method, "params lack \"viewCursor\"")
	}
	sid, seq, ok := ParseCursor(*viewCursor)
	if !ok || sid != *sessionID || seq < 1 {
		return frameErr(ev.Method, "malformed viewCursor %q", *viewCursor)
	}
	ev.SessionID, ev.Seq = *sessionID, seq
	return nil
}

// PageElement is the paged-read element shape: {method, params}.
type PageElement struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Element returns the event in the paged-read element shape.
func (ev *Event) Element() PageElement { return PageElement{Method: ev.Method, Params: ev.Params} }

// unknownMethod reports an unknown method as an upstream_frame_error. When
// the params carry a valid session cursor it also returns an Event holding
// just the cursor members (Method, SessionID, Seq, and for an event with a
// prevCursor, Durable and PrevSeq), so that the caller can report the error
// and still step over the event with State.Pass instead of finding the same
// gap again and again.
func unknownMethod(method string, params json.RawMessage) (*Event, error) {
	err := frameErr(method, "unknown method %q", method)
	var p struct {
		SessionID  *string         `json:"sessionId"`
		ViewCursor *string         `json:"viewCursor"`
		PrevCursor json.RawMessage `json:"prevCursor"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return nil, err
	}
	ev := &Event{Method: method, Params: params}
	if ev.setCursor(p.SessionID, p.ViewCursor) != nil {
		return nil, err
	}
	if prev := bytes.TrimSpace(p.PrevCursor); len(prev) > 0 {
		ev.Durable = true
		var c string
		if json.Unmarshal(prev, &c) == nil {
			if sid, seq, ok := ParseCursor(c); ok && sid == ev.SessionID {
				ev.PrevSeq = seq
			}
		}
	}
	return ev, err
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

// JSON-RPC error codes of protocol version 1.
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
