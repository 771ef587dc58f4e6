package sync

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// A fold is compared with the host's once it has settled: live, and
// holding the host's last durable event. A client that reported idle is
// live, but live is not instantaneous: events of a turn another client
// started may still be on their way to it (issue 24). Comparing earlier
// races the fold; a fold that never settles, or differs once settled, is
// a real divergence.

// foldSettled reports whether a fold may be compared with the host's:
// its link is live and it holds every durable event the host has
// (heldDurable is its durable cursor, hostDurable the host's).
func foldSettled(live bool, heldDurable, hostDurable int64) bool {
	return live && heldDurable >= hostDurable
}

// settledFold waits at most within for c's fold to settle against
// hostDurable and returns its canonical encoding, taken in the same step
// as the check. A fold that does not settle in time is an error that
// shows it.
func settledFold(c *Client, hostDurable int64, within time.Duration) ([]byte, error) {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		var b []byte
		var live bool
		var held int64
		ctx, cancel := context.WithTimeout(context.Background(), within)
		err := c.Inspect(ctx, func(st *model.State) {
			live = c.loop.link != nil && c.loop.link.phase == linkLive
			held = st.DurableCursor
			b = st.Encode()
		})
		cancel()
		if err != nil {
			return nil, fmt.Errorf("inspect: %w", err)
		}
		if foldSettled(live, held, hostDurable) {
			return b, nil
		}
		select {
		case <-c.Updates():
		case <-time.After(10 * time.Millisecond):
		case <-deadline.C:
			return b, fmt.Errorf("the fold did not settle within %v: live %v, durable cursor %d of the host's %d:\n got %s",
				within, live, held, hostDurable, clip(b))
		}
	}
}

// durableCursorOf reads the durable cursor of a canonical encoding.
func durableCursorOf(t testing.TB, enc []byte) int64 {
	t.Helper()
	var head struct {
		DurableCursor string `json:"durableCursor"`
	}
	if err := json.Unmarshal(enc, &head); err != nil {
		t.Fatal(err)
	}
	_, seq, ok := model.ParseCursor(head.DurableCursor)
	if !ok {
		t.Fatalf("malformed durable cursor %q", head.DurableCursor)
	}
	return seq
}
