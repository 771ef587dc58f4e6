package model

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AppendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it with HTML escaping off: invalid UTF-8 becomes
// U+FFFD, and U+2028 and U+2029 are escaped.
func AppendJSONString(dst []byte, s string) []byte { return appendString(dst, s) }

func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\u202`...)
			dst = append(dst, "89"[r&1])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendCanonical appends v in Lookout's canonical JSON form: object keys
// sorted, no insignificant white space, numbers as written by the source.
// v is a value of an item's field tree (json.RawMessage, *Str, map[string]any,
// []any) or a plain Go value produced by decoding with UseNumber.
func appendCanonical(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case json.RawMessage:
		return appendCanonicalRaw(dst, x)
	case *Str:
		return appendString(dst, x.String())
	case string:
		return appendString(dst, x)
	case json.Number:
		return append(dst, x...)
	case bool:
		return strconv.AppendBool(dst, x)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case float64:
		return strconv.AppendFloat(dst, x, 'g', -1, 64)
	case map[string]any:
		return appendObject(dst, x, appendCanonical)
	case []any:
		return appendArray(dst, x, appendCanonical)
	case []string:
		return appendArray(dst, x, appendString)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return append(dst, "null"...)
		}
		return appendCanonicalRaw(dst, b)
	}
}

// appendCanonicalRaw re-encodes raw JSON canonically. Scalars other than
// strings are copied as they are; strings, objects and arrays are decoded
// and re-encoded so that two spellings of one value encode alike.
func appendCanonicalRaw(dst []byte, raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	switch raw[0] {
	case '"':
		if canonicalString(raw) {
			return append(dst, raw...)
		}
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return append(dst, "null"...)
		}
		return appendString(dst, str)
	case '{', '[':
		v, err := decodeAny(raw)
		if err != nil {
			return append(dst, "null"...)
		}
		return appendCanonical(dst, v)
	default:
		return append(dst, raw...)
	}
}

func decodeAny(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// canonicalString reports whether raw, a JSON string, is already spelled
// as appendString spells its value, so that it can be copied as it is:
// valid UTF-8 without U+2028 or U+2029, no control character, and only
// the escapes appendString writes (\" \\ \b \f \n \r \t, \u2028, \u2029,
// and \u00xx in lower-case hex for the other control characters).
func canonicalString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return false
			}
			switch s[i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 <= len(s) && (string(s[i+2:i+6]) == "2028" || string(s[i+2:i+6]) == "2029") {
					i += 6
					continue
				}
				if i+6 > len(s) || s[i+2] != '0' || s[i+3] != '0' || (s[i+4] != '0' && s[i+4] != '1') {
					return false
				}
				lo := strings.IndexByte("0123456789abcdef", s[i+5])
				if lo < 0 {
					return false
				}
				switch c := (s[i+4]-'0')<<4 | byte(lo); c {
				case '\b', '\f', '\n', '\r', '\t':
					return false // appendString writes these short
				}
				i += 6
			default:
				return false
			}
		case c == '"' || c < 0x20:
			return false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
				return false
			}
			i += size
		}
	}
	return true
}

// appendObject appends m as a JSON object, its keys sorted, each value
// written by appendValue.
func appendObject[V any](dst []byte, m map[string]V, appendValue func([]byte, V) []byte) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		dst = appendValue(dst, m[k])
	}
	return append(dst, '}')
}

// appendArray appends list as a JSON array, each element written by
// appendValue.
func appendArray[V any](dst []byte, list []V, appendValue func([]byte, V) []byte) []byte {
	dst = append(dst, '[')
	for i, v := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendValue(dst, v)
	}
	return append(dst, ']')
}

// appendArrayOrNull is appendArray, or null for a nil list, as
// json.Marshal writes a nil slice.
func appendArrayOrNull[V any](dst []byte, list []V, appendValue func([]byte, V) []byte) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	return appendArray(dst, list, appendValue)
}
