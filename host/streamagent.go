package host

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/model"
)

// StreamAgent is the benchmark agent (lookout serve --bench-stream): it
// answers every prompt with one agent message that streams Text in
// consecutive deltas of Chunk bytes, then completes it. It keeps no state
// beyond its fields and is safe for concurrent use.
//
// A Text longer than the host's text bound (TextBound) is cut like any
// other agent's answer; a benchmark host raises Options.FieldBound to
// hold a longer one whole.
type StreamAgent struct {
	// Text is the answer.
	Text string
	// Chunk is the size of one delta in bytes (cut back to a UTF-8
	// boundary); below 1 means 10.
	Chunk int
	// Rate is the deltas per second; 0 or less emits them as fast as the
	// host takes them (the host's outbound queues then decide how fast
	// they reach each client).
	Rate float64
	// OnLastDelta, when non-nil, is called with the time the last delta
	// was emitted, before the message completes.
	OnLastDelta func(time.Time)
}

// Launch accepts every prompt.
func (a *StreamAgent) Launch(string) error { return nil }

// Run streams the answer. At a Rate, delta i is due i/Rate seconds after
// the first one; a late stream catches up without sleeping.
func (a *StreamAgent) Run(ctx context.Context, t *Turn) error {
	id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
	if err != nil {
		return err
	}
	chunk := a.Chunk
	if chunk < 1 {
		chunk = 10
	}
	start := time.Now()
	text := a.Text
	for i := 0; text != ""; i++ {
		if a.Rate > 0 {
			due := start.Add(time.Duration(float64(i) / a.Rate * float64(time.Second)))
			if d := time.Until(due); d > 0 {
				if err := t.Sleep(ctx, d); err != nil {
					return err
				}
			}
		}
		n := min(chunk, len(text))
		for n < len(text) && n > 1 && !utf8.RuneStart(text[n]) {
			n--
		}
		if err := t.Delta(id, "text", text[:n]); err != nil {
			return err
		}
		text = text[n:]
	}
	if a.OnLastDelta != nil {
		a.OnLastDelta(time.Now())
	}
	return t.CompleteItem(id, model.StatusCompleted, nil)
}
