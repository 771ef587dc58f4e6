package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Item kinds the protocol names. Kind is an open enum: any other value is
// kept whole and rendered generically.
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
	if !json.Valid(raw) {
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
	return it, nil
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

// FieldNames returns the names of every member of the item, sorted.
func (it *Item) FieldNames() []string {
	names := make([]string, 0, len(it.fields))
	for k := range it.fields {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Field returns the canonical JSON of one top-level member, or nil when the
// item has no such member.
func (it *Item) Field(name string) json.RawMessage {
	v, ok := it.fields[name]
	if !ok {
		return nil
	}
	return appendCanonical(nil, v)
}

// Has reports whether the item has the top-level member name.
func (it *Item) Has(name string) bool { _, ok := it.fields[name]; return ok }

// String returns the string at a dotted field path ("text", "summary.1"),
// or "" when there is none or it is not a string.
func (it *Item) String(path string) string {
	v, ok := it.lookup(path)
	if !ok {
		return ""
	}
	s, _ := valueString(v)
	return s
}

// Strings returns the array of strings at path (e.g. "summary"); elements
// that are not strings are skipped.
func (it *Item) Strings(path string) []string {
	v, ok := it.lookup(path)
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := valueString(e); ok {
				out = append(out, s)
			}
		}
		return out
	case json.RawMessage:
		var raw []json.RawMessage
		if json.Unmarshal(x, &raw) != nil {
			return nil
		}
		out := make([]string, 0, len(raw))
		for _, e := range raw {
			var s string
			if json.Unmarshal(e, &s) == nil {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Int returns the integer at path and whether there is one.
func (it *Item) Int(path string) (int64, bool) {
	v, ok := it.lookup(path)
	if !ok {
		return 0, false
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, false
	}
	return int64(f), true
}

// Text is the "text" member (userMessage, agentMessage).
func (it *Item) Text() string { return it.String("text") }

// Summary is the reasoning summary parts.
func (it *Item) Summary() []string { return it.Strings("summary") }

// ToolName, InputText and Output are toolCall members.
func (it *Item) ToolName() string  { return it.String("toolName") }
func (it *Item) InputText() string { return it.String("inputText") }
func (it *Item) Output() string    { return it.String("output") }

// ExitCode is the toolCall's exit code, if it has one.
func (it *Item) ExitCode() (int64, bool) { return it.Int("exitCode") }

// CommandID is a userMessage's commandId.
func (it *Item) CommandID() string { return it.String("commandId") }

// EndedBy is "hostDeath" for an item its host's death terminated.
func (it *Item) EndedBy() string { return it.String("endedBy") }

// ErrorMessage is the human-readable error of an item: the "message" member
// of an error item, or the "error" member of a toolCall (a string, or an
// object's "message").
func (it *Item) ErrorMessage() string {
	if s := it.String("message"); s != "" && it.Kind == KindError {
		return s
	}
	if s := it.String("error"); s != "" {
		return s
	}
	return it.String("error.message")
}

// IsOpen reports whether the item can still change by deltas.
func (it *Item) IsOpen() bool { return !it.Final && !IsTerminalStatus(it.Status) }

// Truncated reports whether the host cut the field at path at its bound.
// It reads the "truncated" member, an array of field paths (or true, for
// the whole item). A path "summary" also covers "summary.N".
func (it *Item) Truncated(path string) bool {
	for _, p := range it.TruncatedFields() {
		if p == "*" || p == path || strings.HasPrefix(path, p+".") {
			return true
		}
	}
	return false
}

// TruncatedFields lists the field paths the host truncated; "*" stands for
// an item sent with "truncated": true.
func (it *Item) TruncatedFields() []string {
	v, ok := it.fields["truncated"]
	if !ok {
		return nil
	}
	if raw, ok := v.(json.RawMessage); ok && string(raw) == "true" {
		return []string{"*"}
	}
	return it.Strings("truncated")
}

// ContentLen is the total length of the item's streamable strings; with
// Revision it identifies the item's content for caches.
func (it *Item) ContentLen() int {
	n := 0
	for _, v := range it.fields {
		n += treeLen(v)
	}
	return n
}

func treeLen(v any) int {
	switch x := v.(type) {
	case json.RawMessage:
		return len(x)
	case *Str:
		return x.Len()
	case []any:
		n := 0
		for _, e := range x {
			n += treeLen(e)
		}
		return n
	case map[string]any:
		n := 0
		for _, e := range x {
			n += treeLen(e)
		}
		return n
	}
	return 0
}

func valueString(v any) (string, bool) {
	switch x := v.(type) {
	case *Str:
		return x.String(), true
	case json.RawMessage:
		if len(x) == 0 || x[0] != '"' {
			return "", false
		}
		var s string
		if json.Unmarshal(x, &s) != nil {
			return "", false
		}
		return s, true
	case string:
		return x, true
	}
	return "", false
}

// lookup walks a dotted path without materialising anything.
func (it *Item) lookup(path string) (any, bool) {
	var cur any = it.fields
	for seg := range strings.SplitSeq(path, ".") {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		case json.RawMessage:
			v, ok := rawChild(x, seg)
			if !ok {
				return nil, false
			}
			cur = v
		default:
			return nil, false
		}
	}
	return cur, true
}

func rawChild(raw json.RawMessage, seg string) (json.RawMessage, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	switch raw[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil, false
		}
		v, ok := m[seg]
		return v, ok
	case '[':
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 {
			return nil, false
		}
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil || i >= len(a) {
			return nil, false
		}
		return a[i], true
	}
	return nil, false
}

// appendDelta appends d to the string at a dotted path, materialising
// containers and strings on the way. A path into a missing member creates
// it (a string, or an array element at exactly the array's length). On
// error the item's content is unchanged. b bounds what the delta may add;
// it says what was added (b.added) and whether, and why, d was cut (b.cut).
func (it *Item) appendDelta(path, d string, b *deltaBudget) *FoldError {
	if !strings.Contains(path, ".") { // fast path: a top-level field
		if path == "" || commonFields[path] {
			return &FoldError{Reason: BadFieldPath, Detail: "field cannot take deltas"}
		}
		v, ok := it.fields[path]
		if s, isStr := v.(*Str); isStr {
			if len(d) > b.fieldMax-s.Len() || len(d) > b.itemRoom {
				d = b.clip(s.Len(), d)
			}
			s.append(d)
			b.added = len(d)
			return nil
		}
		if b.itemRoom <= 0 {
			b.cut = cutItem
			return nil
		}
		nv, ferr := appendPath(v, ok, nil, d, b)
		if ferr != nil {
			return ferr
		}
		it.fields[path] = nv
		return nil
	}
	segs := strings.Split(path, ".")
	if commonFields[segs[0]] || slices.Contains(segs, "") {
		return &FoldError{Reason: BadFieldPath, Detail: "field path cannot take deltas"}
	}
	if b.itemRoom <= 0 {
		b.cut = cutItem
		return nil
	}
	_, ferr := appendPath(it.fields, true, segs, d, b)
	return ferr
}

// appendPath appends d at segs below cur and returns cur's new value.
func appendPath(cur any, exists bool, segs []string, d string, b *deltaBudget) (any, *FoldError) {
	if len(segs) == 0 {
		if !exists {
			d = b.clip(0, d)
			b.added += len(d) + newValueCost
			return NewStr(d), nil
		}
		s, ferr := asStr(cur)
		if ferr != nil {
			return nil, ferr
		}
		d = b.clip(s.Len(), d)
		s.append(d)
		b.added += len(d)
		return s, nil
	}
	seg := segs[0]
	idx, idxErr := strconv.Atoi(seg)
	if !exists || isNull(cur) {
		if idxErr == nil {
			cur = []any{}
		} else {
			cur = map[string]any{}
		}
		b.added += newValueCost
	}
	cur = materialize(cur)
	switch c := cur.(type) {
	case map[string]any:
		v, ok := c[seg]
		nv, ferr := appendPath(v, ok, segs[1:], d, b)
		if ferr != nil {
			return nil, ferr
		}
		c[seg] = nv
		return c, nil
	case []any:
		if idxErr != nil || idx < 0 || idx > len(c) {
			return nil, &FoldError{Reason: BadFieldPath, Detail: "array index out of range"}
		}
		if idx == len(c) {
			nv, ferr := appendPath(nil, false, segs[1:], d, b)
			if ferr != nil {
				return nil, ferr
			}
			return append(c, nv), nil
		}
		nv, ferr := appendPath(c[idx], true, segs[1:], d, b)
		if ferr != nil {
			return nil, ferr
		}
		c[idx] = nv
		return c, nil
	}
	return nil, &FoldError{Reason: FieldNotString, Detail: "delta path goes through a scalar"}
}

// asStr materialises a raw JSON string (or null) as a Str.
func asStr(v any) (*Str, *FoldError) {
	switch x := v.(type) {
	case *Str:
		return x, nil
	case json.RawMessage:
		if string(x) == "null" {
			return &Str{}, nil
		}
		if s, ok := valueString(x); ok {
			return NewStr(s), nil
		}
	}
	return nil, &FoldError{Reason: FieldNotString, Detail: "delta target is not a string"}
}

// materialise turns a raw JSON object or array into a mutable container.
func materialize(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok || len(raw) == 0 {
		return v
	}
	switch raw[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return v
		}
		mm := make(map[string]any, len(m))
		for k, e := range m {
			mm[k] = e
		}
		return mm
	case '[':
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil {
			return v
		}
		aa := make([]any, len(a))
		for i, e := range a {
			aa[i] = e
		}
		return aa
	}
	return v
}

func isNull(v any) bool {
	raw, ok := v.(json.RawMessage)
	return ok && string(raw) == "null"
}
