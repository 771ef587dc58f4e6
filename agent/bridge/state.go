package bridge

import (
	"encoding/json"
	"io"
	"log/slog"
	"strings"

	"github.com/lookout-sh/lookout/agent/child"
)

// JSONString is raw as a JSON string (a session state value), or "" when
// it is not one.
func JSONString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Title makes a session title of a prompt: its first line, cut to 80
// bytes. Bridges set it on a session's first turn, until the agent names
// the session itself.
func Title(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	return child.Cut(strings.TrimSpace(line), 80)
}

// Logger is l, or a logger that discards everything when l is nil (an
// Options.Logger left unset).
func Logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return l
}
