package agenttest

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// SSEEvent is one server-sent event as ReadSSE parsed it.
type SSEEvent struct {
	// Type is the event line's type.
	Type string
	// Data is the data line's JSON object.
	Data map[string]any
}

// ReadSSE reads server-sent events from r to its end, for tests of a fake
// model. It fails t on a data line that is not a JSON object or whose
// "type" is not its event's.
func ReadSSE(t testing.TB, r io.Reader) []SSEEvent {
	t.Helper()
	var evs []SSEEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var typ string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			typ = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("agenttest: bad data line %q: %v", line, err)
			}
			if d["type"] != typ {
				t.Fatalf("agenttest: event %q carries type %v", typ, d["type"])
			}
			evs = append(evs, SSEEvent{typ, d})
		}
	}
	return evs
}
