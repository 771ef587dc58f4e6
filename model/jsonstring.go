package model

import (
	"encoding/json"
	"unicode/utf8"
)

// Reading a JSON string from a checked frame without encoding/json: the
// usual escapes are read in place, so decoding a long answer makes one
// copy and comparing one makes none. A \u escape, or a byte that is not
// UTF-8 (which decoding replaces), is left to the decoder.

// walkEnd is how walkString ended.
type walkEnd int

const (
	walkDone    walkEnd = iota // every byte was emitted
	walkStopped                // emit returned false
	walkDecoder                // only encoding/json reads this string right
)

// byteValues[c] is c, for emitting an escape's byte without allocating.
var byteValues = func() (b [256]byte) {
	for i := range b {
		b[i] = byte(i)
	}
	return b
}()

// walkString emits, in runs, the bytes the inside of a JSON string stands
// for: plain bytes as they are, a one-character escape as its byte.
func walkString(in []byte, emit func([]byte) bool) walkEnd {
	start := 0
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\':
			if i+1 >= len(in) || unescaped(in[i+1]) == 0 {
				return walkDecoder
			}
			e := unescaped(in[i+1])
			if !emit(in[start:i]) || !emit(byteValues[e:e+1]) {
				return walkStopped
			}
			i += 2
			start = i
		case c < 0x20 || c == '"':
			return walkDecoder
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				return walkDecoder
			}
			i += size
		default:
			i++
		}
	}
	if !emit(in[start:]) {
		return walkStopped
	}
	return walkDone
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

// stringInside is raw's inside when raw is a JSON string.
func stringInside(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	return raw[1 : len(raw)-1], true
}

// unquoteStr decodes a raw JSON string value into a Str with one copy.
// raw is a value from a checked frame; ok is false when it is not a string.
func unquoteStr(raw []byte) (*Str, bool) {
	in, ok := stringInside(raw)
	if !ok {
		return nil, false
	}
	b := make([]byte, 0, len(in))
	if walkString(in, func(run []byte) bool { b = append(b, run...); return true }) == walkDone {
		return &Str{b: b}, true
	}
	s, ok := unquote(raw)
	if !ok {
		return nil, false
	}
	return NewStr(s), true
}

// jsonStringEquals reports whether raw, a JSON value from a checked frame,
// is a string that decodes to s, allocating nothing in the usual case.
func jsonStringEquals(raw []byte, s string) bool {
	in, ok := stringInside(raw)
	if !ok {
		return false
	}
	rest := s
	switch walkString(in, func(run []byte) bool {
		if len(run) > len(rest) || string(run) != rest[:len(run)] {
			return false
		}
		rest = rest[len(run):]
		return true
	}) {
	case walkDone:
		return rest == ""
	case walkStopped:
		return false
	}
	var d string
	return json.Unmarshal(raw, &d) == nil && d == s
}
