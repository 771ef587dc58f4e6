package model

import "fmt"

// Reason classifies a FoldError.
type Reason string

// Reasons a frame or event can be refused (docs/protocol.md, 3. Items, "How
// Lookout folds items"). UpstreamFrameError covers every frame that cannot
// be understood as a protocol notification (malformed JSON, a missing or
// wrong-typed member, an unknown method, an unknown delta shape); the
// Detail says which.
const (
	UpstreamFrameError Reason = "upstream_frame_error"
	UnknownItem        Reason = "unknown_item"
	TerminalItem       Reason = "terminal_item"
	FieldNotString     Reason = "field_not_string"
	BadFieldPath       Reason = "bad_field_path"
	SessionMismatch    Reason = "session_mismatch"
	InvalidTransition  Reason = "invalid_transition"
	SnapshotError      Reason = "snapshot_error"
	// ClientBound reports an input this client cut at its own bound
	// (State.SetLimits): applied, up to the bound; the rest dropped.
	ClientBound Reason = "client_bound"
)

// FoldError is the typed result for an input the fold refuses. An input
// that yields a FoldError changes nothing in the State (except where a
// method documents otherwise).
type FoldError struct {
	Reason Reason
	Method string // the event's method, when known
	ItemID string // the item concerned, when known
	Field  string // the field path concerned, when known
	Seq    int64  // the event's seq, when known
	Detail string // human-readable detail
}

func (e *FoldError) Error() string {
	s := string(e.Reason)
	if e.Method != "" {
		s += " in " + e.Method
	}
	if e.Seq > 0 {
		s += fmt.Sprintf(" (seq %d)", e.Seq)
	}
	if e.ItemID != "" {
		s += " item " + e.ItemID
	}
	if e.Field != "" {
		s += " field " + e.Field
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func frameErr(method string, format string, args ...any) *FoldError {
	return &FoldError{Reason: UpstreamFrameError, Method: method, Detail: fmt.Sprintf(format, args...)}
}
