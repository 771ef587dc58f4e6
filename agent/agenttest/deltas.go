package agenttest

import (
	"strconv"
	"unicode/utf8"
)

// A fake model's stream takes an answer's deltas from a next function:
// each call yields the next delta, and ok false after the last. These make
// the ones both fakes use.

// Deltas yields d's deltas in order.
func Deltas(d ...string) func() (delta string, ok bool) {
	i := 0
	return func() (string, bool) {
		if i >= len(d) {
			return "", false
		}
		i++
		return d[i-1], true
	}
}

// NumberedDeltas yields n deltas prefix+"0 ", prefix+"1 ", ...: the
// "slow" scenarios' answer, whose text shows how far it streamed.
func NumberedDeltas(prefix string, n int) func() (delta string, ok bool) {
	i := 0
	return func() (string, bool) {
		if i >= n {
			return "", false
		}
		i++
		return prefix + strconv.Itoa(i-1) + " ", true
	}
}

// Halves cuts s in two deltas at a rune boundary near the middle.
func Halves(s string) []string {
	i := len(s) / 2
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return []string{s[:i], s[i:]}
}
