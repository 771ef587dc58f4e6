package model

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// JSONStringPrefix measures what AppendJSONString writes, and cuts at the
// last rune that fits both bounds.
func TestJSONStringPrefixTable(t *testing.T) {
	for _, tc := range []struct {
		name              string
		s                 string
		maxBytes, maxJSON int
		want              string
		wantJSON          int
	}{
		{"empty", "", 10, 10, "", 2},
		{"plain, unbounded", "hello", math.MaxInt, math.MaxInt, "hello", 7},
		{"plain, cut by bytes", "hello", 3, math.MaxInt, "hel", 5},
		{"plain, cut by JSON", "hello", math.MaxInt, 5, "hel", 5},
		{"a newline takes two", "a\nb", math.MaxInt, math.MaxInt, "a\nb", 6},
		{"a control character takes six", "\x1b[0m", math.MaxInt, math.MaxInt, "\x1b[0m", 11},
		{"a control character that does not fit", "ab\x1b", math.MaxInt, 9, "ab", 4},
		{"a rune is never split", "aé", 2, math.MaxInt, "a", 3},
		{"U+2028 takes six", "\u2028", math.MaxInt, math.MaxInt, "\u2028", 8},
		{"an invalid byte takes six", "\xff", math.MaxInt, math.MaxInt, "\xff", 8},
		{"no room at all", "abc", 0, math.MaxInt, "", 2},
		{"less room than the quotes", "abc", 10, 1, "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, n := JSONStringPrefix(tc.s, tc.maxBytes, tc.maxJSON)
			if got != tc.want || n != tc.wantJSON {
				t.Fatalf("JSONStringPrefix(%q, %d, %d) = %q, %d; want %q, %d", tc.s, tc.maxBytes, tc.maxJSON, got, n, tc.want, tc.wantJSON)
			}
		})
	}
}

// For any string and bounds, the prefix is a prefix on a rune boundary
// within both bounds, its length is AppendJSONString's, and one more rune
// would pass a bound.
func TestJSONStringPrefixMatchesAppendJSONString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s string
		if rapid.Bool().Draw(t, "raw") {
			s = string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		} else {
			s = rapid.String().Draw(t, "s") + string(rapid.SampledFrom([]rune{'\u2028', '"', '\\', '\x00', '\n', '\x1b', 'é', '😀'}).Draw(t, "r"))
		}
		maxBytes := rapid.IntRange(0, len(s)+2).Draw(t, "maxBytes")
		maxJSON := rapid.IntRange(0, 6*len(s)+4).Draw(t, "maxJSON")
		p, n := JSONStringPrefix(s, maxBytes, maxJSON)
		if !strings.HasPrefix(s, p) || len(p) > maxBytes {
			t.Fatalf("prefix %q of %q, max %d bytes", p, s, maxBytes)
		}
		if !endsOnRune(s, len(p)) {
			t.Fatalf("prefix %q splits a rune of %q", p, s)
		}
		if enc := len(AppendJSONString(nil, p)); enc != n || (p != "" && n > maxJSON) {
			t.Fatalf("prefix %q: length %d, AppendJSONString writes %d, max %d", p, n, enc, maxJSON)
		}
		if len(p) < len(s) {
			_, size := utf8.DecodeRuneInString(s[len(p):])
			next := s[:len(p)+size]
			if len(next) <= maxBytes && len(AppendJSONString(nil, next)) <= maxJSON {
				t.Fatalf("prefix %q of %q stops early: %q fits %d bytes, %d of JSON", p, s, next, maxBytes, maxJSON)
			}
		}
	})
}

// endsOnRune reports whether s[:n] ends where a rune (or an invalid byte)
// of s ends, decoding s from its start.
func endsOnRune(s string, n int) bool {
	i := 0
	for i < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i == n
}
