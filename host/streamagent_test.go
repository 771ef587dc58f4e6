package host_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The benchmark agent streams its text whole up to the text bound, past
// it when the host's field bound is raised to hold it, and cut at
// TextBound otherwise.
func TestStreamAgentAndFieldBound(t *testing.T) {
	text := strings.Repeat("0123456789abcdefghi\n", 5000) + "END"                // 100,003 bytes
	long := strings.Repeat("0123456789abcdefghi\n", host.TextBound/20+1) + "END" // just past 1 MiB
	for _, tc := range []struct {
		name  string
		text  string
		bound int
		want  string
	}{
		{"default", text, 0, text},
		{"long, raised", long, len(long) + 1, long},
		{"long, default", long, 0, long[:host.TextBound]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			last := make(chan time.Time, 1)
			a := &host.StreamAgent{Text: tc.text, Chunk: 1000, OnLastDelta: func(at time.Time) { last <- at }}
			h := hosttest.Start(t, host.Options{AgentImpl: a, Agent: "bench", FieldBound: tc.bound, Ephemeral: true})
			c := hosttest.Dial(t, h)
			sid, _, st := newSession(t, c)
			runTurn(t, c, sid, st, "u", "go")
			msgs := itemsOfKind(st, model.KindAgentMessage)
			if len(msgs) != 1 || msgs[0].Text() != tc.want || msgs[0].Status != model.StatusCompleted {
				t.Fatalf("got %d messages; text %d bytes, want %d", len(msgs), len(msgs[0].Text()), len(tc.want))
			}
			if got := msgs[0].Truncated("text"); got != (len(tc.want) < len(tc.text)) {
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
