package model

import (
	"encoding/json"
	"maps"
	"strconv"
)

// Item kinds the protocol names (docs/protocol.md, 3. Items). Kind is an
// open enum: any other value is kept whole and rendered generically.
const (
	KindUserMessage       = "userMessage"
	KindAgentMessage      = "agentMessage"
	KindReasoning         = "reasoning"
	KindToolCall          = "toolCall"
	KindContextCompaction = "contextCompaction"
	KindError             = "error"
	// KindFileChange is a set of file edits with their unified diffs.
	KindFileChange = "fileChange"
)

// Item statuses. StatusInProgress is the generic open status; a toolCall
// uses the tool phases instead. Terminals arrive only on item/completed.
const (
	StatusInProgress     = "inProgress"
	StatusCompleted      = "completed"
	StatusFailed         = "failed"
	StatusStopped        = "stopped"
	StatusInputStreaming = "inputStreaming"
	StatusReady          = "ready"
	StatusWaitingUser    = "waitingUser"
	StatusRunning        = "running"
)

// IsTerminalStatus reports whether s is one of the terminal item statuses.
func IsTerminalStatus(s string) bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusStopped
}

// commonFields are the item members the fold interprets itself; deltas may
// not target them.
var commonFields = map[string]bool{
	"itemId": true, "kind": true, "turnId": true, "revision": true,
	"status": true, "recordedAt": true, "position": true, "endedBy": true,
	"truncated": true,
}

// Item is one transcript entry at one revision. The common members are
// mirrored in typed fields; every member the item was sent with, known or
// not, is kept in its field tree and survives a decode/encode round trip.
//
// An Item reachable from a View is immutable. Only the State that owns an
// Item mutates it, and it clones an Item before mutating one it has
// published (copy-on-write).
type Item struct {
	ID         string
	Kind       string
	TurnID     string
	Status     string
	RecordedAt string
	Revision   int64
	// Position is the seq of the item's first durable event; transcript
	// order is ascending Position, then ID.
	Position int64
	// Final is set once item/completed has been folded: no delta applies
	// after it.
	Final bool
	// TerminalUnknown is a display state, never a wire status: the item was
	// open when its ephemeral host died and no terminal will ever come.
	TerminalUnknown bool
	// Cut is set when this client cut the item at its own bound
	// (State.SetLimits): a display state like TerminalUnknown, never on
	// the wire and not part of the canonical encoding. nil for an item
	// held whole. Shared by copies: replaced, never modified.
	Cut *ItemCut
	// Version grows with every change to this item (full object or delta).
	// Together with ID it keys render caches.
	Version uint64

	fields map[string]any // every member: json.RawMessage, *Str, []any, map[string]any
	gen    uint64         // State generation that owns this copy
	held   int            // content bytes counted toward the State's limits
}

// DecodeItem decodes an item object. itemId, kind and revision are required;
// a member of the wrong type is an upstream_frame_error. The item's raw
// members alias raw, which must not be modified afterwards.
func DecodeItem(raw []byte) (*Item, error) {
	if !validJSON(raw) {
		return nil, frameErr("", "item is not valid JSON")
	}
	return decodeValidItem(raw)
}

func decodeValidItem(raw []byte) (*Item, error) {
	it := &Item{fields: make(map[string]any, 12)}
	var ferr *FoldError
	var seen [4]bool // itemId, kind, revision, status
	str := func(k string, v []byte, dst *string) {
		if string(v) == "null" {
			return
		}
		s, ok := unquote(v)
		if !ok && ferr == nil {
			ferr = frameErr("", "item member %q is not a string", k)
		}
		*dst = s
	}
	num := func(k string, v []byte, dst *int64) bool {
		if string(v) == "null" {
			return false
		}
		n, ok := parseInt(v)
		if !ok && ferr == nil {
			ferr = frameErr("", "item member %q is not an integer", k)
		}
		*dst = n
		return ok
	}
	err := eachMember(raw, func(kr, v []byte) error {
		k, ok := unquote(kr)
		if !ok {
			return errScan
		}
		it.fields[k] = json.RawMessage(v)
		switch k {
		case "text":
			// Decoded once here rather than by every Text call: a
			// completed answer's text is read each frame it is drawn.
			if t, ok := unquoteStr(v); ok {
				it.fields[k] = t
			}
		case "itemId":
			str(k, v, &it.ID)
			seen[0] = true
		case "kind":
			str(k, v, &it.Kind)
			seen[1] = true
		case "turnId":
			str(k, v, &it.TurnID)
		case "status":
			str(k, v, &it.Status)
		case "recordedAt":
			str(k, v, &it.RecordedAt)
		case "revision":
			seen[2] = num(k, v, &it.Revision)
		case "position":
			num(k, v, &it.Position)
		}
		return nil
	})
	if err != nil {
		return nil, frameErr("", "item is not a JSON object")
	}
	if ferr != nil {
		return nil, ferr
	}
	switch {
	case !seen[0] || it.ID == "":
		return nil, frameErr("", "item lacks \"itemId\"")
	case !seen[1]:
		return nil, frameErr("", "item lacks \"kind\"")
	case !seen[2]:
		return nil, frameErr("", "item lacks \"revision\"")
	case it.Revision < 1:
		return nil, frameErr("", "item %s has revision %d, want >= 1", it.ID, it.Revision)
	}
	detachRaw(it.fields)
	return it, nil
}

// detachRaw copies the members kept raw out of the frame they were read
// from, into one buffer of their own: a member slicing the frame would
// keep the whole frame (the text included, already decoded once) alive
// as long as the item is held.
func detachRaw(fields map[string]any) {
	n := 0
	for _, v := range fields {
		if r, ok := v.(json.RawMessage); ok {
			n += len(r)
		}
	}
	buf := make([]byte, 0, n)
	for k, v := range fields {
		if r, ok := v.(json.RawMessage); ok {
			at := len(buf)
			buf = append(buf, r...)
			fields[k] = json.RawMessage(buf[at:len(buf):len(buf)])
		}
	}
}

// setPosition records the position in the field tree as well, so that the
// canonical encoding (and so a snapshot) carries it.
func (it *Item) setPosition(p int64) {
	it.Position = p
	it.fields["position"] = json.RawMessage(strconv.AppendInt(nil, p, 10))
}

// MarshalJSON encodes the item canonically (sorted keys).
func (it *Item) MarshalJSON() ([]byte, error) { return it.AppendJSON(nil), nil }

// AppendJSON appends the canonical encoding of the item to dst.
func (it *Item) AppendJSON(dst []byte) []byte { return appendCanonical(dst, it.fields) }

// CutMember is the member AppendExportJSON adds to an item this client
// cut at its own bound.
const CutMember = "cutByLookout"

// AppendExportJSON appends the item's canonical JSON, and for an item
// this client cut at its own bound (Cut) a member CutMember saying what
// was cut: {"fields": [...], "fieldBound": N} and "itemBound": N when
// the item bound was reached. It is what `lookout export --format json`
// writes of an item: never sent, and not part of a State's canonical
// encoding.
func (it *Item) AppendExportJSON(dst []byte) []byte {
	if it.Cut == nil {
		return it.AppendJSON(dst)
	}
	cut, err := json.Marshal(struct {
		Fields     []string `json:"fields,omitempty"`
		FieldBound int      `json:"fieldBound,omitempty"`
		ItemBound  int      `json:"itemBound,omitempty"`
	}{it.Cut.Fields, it.Cut.FieldBound, it.Cut.ItemBound})
	if err != nil {
		return it.AppendJSON(dst)
	}
	m := maps.Clone(it.fields)
	m[CutMember] = json.RawMessage(cut)
	return appendCanonical(dst, m)
}

// clone copies the item and its mutable field containers; strings and raw
// values are shared (they are immutable or append-only).
func (it *Item) clone() *Item {
	c := *it
	c.fields = cloneTree(it.fields).(map[string]any)
	return &c
}

func cloneTree(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = cloneTree(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = cloneTree(e)
		}
		return s
	case *Str:
		return x.clone()
	default:
		return v
	}
}
