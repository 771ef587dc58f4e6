package model

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// A small scanner over JSON already known to be valid (json.Valid), used on
// the hot decode path to pick an object's members without building maps of
// interfaces. Values come back as sub-slices of the input.

var errScan = errors.New("malformed JSON")

func skipWS(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t') {
		i++
	}
	return i
}

// scanString returns the index just past the string starting at d[i] (a
// quote) and whether it contains escapes.
func scanString(d []byte, i int) (int, bool, error) {
	esc := false
	for j := i + 1; j < len(d); j++ {
		switch d[j] {
		case '\\':
			esc = true
			j++
		case '"':
			return j + 1, esc, nil
		}
	}
	return 0, false, errScan
}

// skipValue returns the index just past the value starting at d[i].
func skipValue(d []byte, i int) (int, error) {
	if i >= len(d) {
		return 0, errScan
	}
	switch d[i] {
	case '"':
		j, _, err := scanString(d, i)
		return j, err
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				k, _, err := scanString(d, j)
				if err != nil {
					return 0, err
				}
				j = k - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errScan
	default:
		j := i
		for j < len(d) && d[j] != ',' && d[j] != '}' && d[j] != ']' && d[j] != ' ' && d[j] != '\n' && d[j] != '\r' && d[j] != '\t' {
			j++
		}
		if j == i {
			return 0, errScan
		}
		return j, nil
	}
}

// eachMember calls fn for every member of the object in d (valid JSON).
// Keys are raw (still quoted) string bytes.
func eachMember(d []byte, fn func(key, val []byte) error) error {
	i := skipWS(d, 0)
	if i >= len(d) || d[i] != '{' {
		return errScan
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return nil
	}
	for i < len(d) {
		if d[i] != '"' {
			return errScan
		}
		ke, _, err := scanString(d, i)
		if err != nil {
			return err
		}
		key := d[i:ke]
		i = skipWS(d, ke)
		if i >= len(d) || d[i] != ':' {
			return errScan
		}
		i = skipWS(d, i+1)
		ve, err := skipValue(d, i)
		if err != nil {
			return err
		}
		if err := fn(key, d[i:ve]); err != nil {
			return err
		}
		i = skipWS(d, ve)
		if i < len(d) && d[i] == ',' {
			i = skipWS(d, i+1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			return nil
		}
		return errScan
	}
	return errScan
}

// keyIs compares a raw quoted key with a plain name (keys with escapes
// never match: protocol member names need none).
func keyIs(raw []byte, name string) bool {
	return len(raw) == len(name)+2 && string(raw[1:len(raw)-1]) == name
}

// unquote decodes a raw JSON string value. ok is false when raw is not a
// string.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func parseInt(raw []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}

// EachMember calls fn for every member of the JSON object in d, which is
// known to be valid JSON (a checked frame, the host's own journal): keys
// come raw (still quoted), values as sub-slices of d. It checks only what
// it needs to find the members.
func EachMember(d []byte, fn func(key, val []byte) error) error { return eachMember(d, fn) }

// KeyIs compares a raw quoted key from EachMember with a plain name.
func KeyIs(raw []byte, name string) bool { return keyIs(raw, name) }

// Unquote decodes a raw JSON string value from EachMember; ok is false
// when raw is not a string.
func Unquote(raw []byte) (string, bool) { return unquote(raw) }

// ValidJSON reports whether d is one JSON value, as json.Valid does, in
// about half its time (see validJSON): for input that EachMember then
// reads, such as an agent's lines.
func ValidJSON(d []byte) bool { return validJSON(d) }
