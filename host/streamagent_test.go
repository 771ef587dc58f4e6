package host_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The benchmark agent streams its text whole when the host's field bound
// is raised to hold it, and cut at FieldBound otherwise.
func TestStreamAgentAndFieldBound(t *testing.T) {
	text := strings.Repeat("0123456789abcdefghi\n", 5000) + "END" // 100,003 bytes
	for _, tc := range []struct {
		name  string
		bound int
		want  string
	}{
		{"raised", len(text) + 1, text},
		{"default", 0, text[:host.FieldBound]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			last := make(chan time.Time, 1)
			a := &host.StreamAgent{Text: text, Chunk: 10, OnLastDelta: func(at time.Time) { last <- at }}
			h := hosttest.Start(t, host.Options{AgentImpl: a, Agent: "bench", FieldBound: tc.bound, Ephemeral: true})
			c := hosttest.Dial(t, h)
			sid, _, st := newSession(t, c)
			runTurn(t, c, sid, st, "u", "go")
			msgs := itemsOfKind(st, model.KindAgentMessage)
			if len(msgs) != 1 || msgs[0].Text() != tc.want || msgs[0].Status != model.StatusCompleted {
				t.Fatalf("got %d messages; text %d bytes, want %d", len(msgs), len(msgs[0].Text()), len(tc.want))
			}
			if got := msgs[0].Truncated("text"); got != (tc.bound == 0) {
				t.Fatalf("truncated = %v", got)
			}
			select {
			case <-last:
			default:
				t.Fatal("OnLastDelta was not called")
			}
		})
	}
}
