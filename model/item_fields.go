package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

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

// Steered reports whether a userMessage was sent into its running turn
// (turn/steer) rather than submitted as the turn's prompt.
func (it *Item) Steered() bool {
	b, _ := it.boolField("steered")
	return b
}

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
func (it *Item) IsOpen() bool { return !it.Final && !IsTerminalItemStatus(it.Status) }

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
