package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// DecodeFrame decodes a wire frame holding a session notification
// (docs/protocol.md, 2. Notifications):
// ParseFrame, then Frame.Event. On error the Event is nil, except for an
// unknown method whose params carry a valid cursor (see State.Pass).
func DecodeFrame(raw []byte) (*Event, error) {
	f, err := ParseFrame(raw)
	if err != nil {
		return nil, err
	}
	return f.Event()
}

// Event decodes a notification frame into an Event: the one decode path a
// client runs per frame. A frame from ParseFrame was checked to be JSON
// once, whole, so its params are not checked again. A response frame is
// an upstream_frame_error; otherwise errors are DecodeNotification's.
func (f *Frame) Event() (*Event, error) {
	if f.Method == "" {
		return nil, frameErr("", "frame is a response, not a notification")
	}
	ev, err := decodeNotification(f.Method, f.Params, f.valid)
	if ev != nil {
		ev.EmittedAtMs = f.EmittedAtMs
	}
	return ev, err
}

// wireParams is the union of every notification's params, as raw members.
type wireParams struct {
	SessionID, ViewCursor                      *string
	PrevCursor, Item, TurnID, CommandID, Text  json.RawMessage
	AgentCommand                               json.RawMessage
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
		case "agentCommand":
			p.AgentCommand = v
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
	if !valid && len(params) > 0 && !validJSON(params) {
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
			var fe *FoldError
			if !errors.As(ierr, &fe) {
				return nil, ierr
			}
			fe.Method = method
			return nil, fe
		}
		ev.Item = it
	case MethodTurnQueued:
		ev.TurnID = str(p.TurnID, "turnId", true)
		ev.CommandID = str(p.CommandID, "commandId", false)
		ev.Text = str(p.Text, "text", false)
		ev.AgentCommand = str(p.AgentCommand, "agentCommand", false)
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
		ev.Reason = str(p.Reason, "reason", false)
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
