package model

import "unicode/utf8"

// JSONStringPrefix returns the longest prefix of s that does not split a
// UTF-8 sequence, is at most maxBytes long, and whose JSON string (as
// AppendJSONString writes it, quotes included) is at most maxJSON bytes;
// and that JSON string's length. It lets a writer bound what a string
// costs on the wire without encoding it: a control character takes six
// bytes there (\u001b), a quote or a newline two.
func JSONStringPrefix(s string, maxBytes, maxJSON int) (prefix string, jsonLen int) {
	n, enc := 0, 2
	for n < len(s) {
		size, cost := jsonRuneLen(s, n)
		if n+size > maxBytes || enc+cost > maxJSON {
			break
		}
		n, enc = n+size, enc+cost
	}
	return s[:n], enc
}

// jsonRuneLen is the size of the rune (or invalid byte) at s[i] and the
// bytes AppendJSONString writes for it.
func jsonRuneLen(s string, i int) (size, enc int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			return 1, 2
		case c < 0x20:
			return 1, 6
		}
		return 1, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return 1, 6 // \ufffd
	case r == '\u2028' || r == '\u2029':
		return size, 6
	}
	return size, size
}
