package model

import "encoding/json"

// keepStreamed keeps, in a full object that replaces prev (item/updated or
// item/completed after a stream), the streamed value of every top-level
// string member the object repeats unchanged: the *Str its deltas built
// instead of the object's JSON string (or, for "text", the copy decoded
// when the object was read). Reading such a member then costs nothing,
// where a JSON string is decoded again on every read, and copies of the
// item in older Views share its bytes. Sharing the *Str is safe: its bytes below its length never
// change, and prev has left the State.
func (it *Item) keepStreamed(prev *Item) {
	for k, v := range it.fields {
		s, ok := prev.fields[k].(*Str)
		if !ok {
			continue
		}
		switch v := v.(type) {
		case json.RawMessage:
			ok = jsonStringEquals(v, s.String())
		case *Str: // "text", decoded when the object was read
			ok = v.String() == s.String()
		default:
			ok = false
		}
		if ok {
			it.fields[k] = s.clone()
		}
	}
}
