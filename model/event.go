package model

import "encoding/json"

// Notification methods of protocol version 1 (docs/protocol.md,
// 2. Notifications).
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
	// Cut is set by a client on an item/delta its fold cut at its own
	// bound (State.DeltaCut), never on the wire: the item's cut as it
	// stands after the delta. A State folding the delta marks its item
	// cut the same way, so what a client's consumer folds says so too.
	Cut *ItemCut

	TurnID    string // turn/*, approval/requested, warning
	CommandID string // turn/queued, turn/unqueued, turn/started
	Text      string // turn/queued
	// AgentCommand is turn/queued's agentCommand: the agent command the
	// turn runs instead of a prompt ("" for a prompt).
	AgentCommand string
	QueuePos     int64      // turn/queued position (-1 when absent)
	Reason       string     // turn/unqueued; a deny's reason in approval/resolved
	StartedAt    string     // turn/started
	Status       string     // turn/completed
	TurnError    *TurnError // turn/completed

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

// PageElement is the paged-read element shape: {method, params}.
type PageElement struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`

	// valid: DecodePage checked the page (Params included) is JSON.
	valid bool
}

// Event decodes the element as DecodeNotification does, without checking
// its params are JSON again when DecodePage read it.
func (e PageElement) Event() (*Event, error) { return decodeNotification(e.Method, e.Params, e.valid) }

// Element returns the event in the paged-read element shape.
func (ev *Event) Element() PageElement { return PageElement{Method: ev.Method, Params: ev.Params} }
