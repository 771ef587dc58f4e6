package model

import (
	"strconv"
	"strings"
)

// FormatCursor returns the wire form "v:<sessionId>:<seq>".
func FormatCursor(sessionID string, seq int64) string {
	return "v:" + sessionID + ":" + strconv.FormatInt(seq, 10)
}

// ParseCursor splits a wire cursor into its session id and seq. The session
// id may itself contain colons; the seq is what follows the last one.
func ParseCursor(c string) (sessionID string, seq int64, ok bool) {
	if !strings.HasPrefix(c, "v:") {
		return "", 0, false
	}
	rest := c[2:]
	i := strings.LastIndexByte(rest, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(rest[i+1:], 10, 64)
	if err != nil || n < 0 {
		return "", 0, false
	}
	return rest[:i], n, true
}
