package model

import (
	"encoding/json"
	"unicode/utf8"
)

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

// jsonStringEquals reports whether raw, a JSON value from a checked frame,
// is a string that decodes to s. It reads the usual escapes in place, so
// comparing a long answer allocates nothing; a \u escape, or a byte that
// is not UTF-8 (decoding replaces it), goes through the decoder.
func jsonStringEquals(raw []byte, s string) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	in, j := raw[1:len(raw)-1], 0
	for i := 0; i < len(in); {
		c, n := in[i], 1
		switch {
		case c == '\\' && i+1 < len(in):
			c, n = unescaped(in[i+1]), 2
			if c == 0 {
				return decodesTo(raw, s)
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				return decodesTo(raw, s)
			}
			if j+size > len(s) || string(in[i:i+size]) != s[j:j+size] {
				return false
			}
			i, j = i+size, j+size
			continue
		}
		if j >= len(s) || s[j] != c {
			return false
		}
		i, j = i+n, j+1
	}
	return j == len(s)
}

// unescaped is the byte a one-character JSON escape stands for, or 0 for
// \u (and anything else).
func unescaped(c byte) byte {
	switch c {
	case '"', '\\', '/':
		return c
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

func decodesTo(raw []byte, s string) bool {
	var d string
	return json.Unmarshal(raw, &d) == nil && d == s
}
