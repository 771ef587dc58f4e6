package host

import (
	"context"
	"fmt"
	"sync"

	"github.com/lookout-sh/lookout/termtext"
)

// demoSteers holds, by session id, the channel the demo's running slow
// turn takes steered text from.
var demoSteers sync.Map

// Steer hands text to the demo's slow turn, which answers it while it
// keeps running; its other turns are over too soon to take any.
func (DemoAgent) Steer(ctx context.Context, t *Turn, text string) error {
	v, ok := demoSteers.Load(t.SessionID())
	if !ok {
		return fmt.Errorf("%w: the demo takes input only while its slow turn runs", ErrSteerUnsupported)
	}
	select {
	case v.(chan string) <- text:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// demoSteerReply is the demo's answer to text steered into its slow turn.
func demoSteerReply(text string) string {
	return "Noted, while still working: “" + termtext.Line(text) + "”."
}
