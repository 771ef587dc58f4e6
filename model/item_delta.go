package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

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
			b.added, b.kept = len(d), len(d)
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
			b.kept = len(d)
			return NewStr(d), nil
		}
		s, ferr := asStr(cur)
		if ferr != nil {
			return nil, ferr
		}
		d = b.clip(s.Len(), d)
		s.append(d)
		b.added += len(d)
		b.kept = len(d)
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
