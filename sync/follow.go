package sync

import (
	"context"
	"fmt"
)

// FollowEnded is why Follow stopped before done said it was finished: the
// client reached a final state (Freshness.State == Error: a persistent
// refusal such as a bad token or an unknown session), or the host could
// not be reached before the first connection (NeverConnected; for a
// script, unreachable is final).
type FollowEnded struct {
	Freshness      Freshness
	NeverConnected bool
}

func (e *FollowEnded) Error() string {
	if e.Freshness.Err != "" {
		return e.Freshness.Err
	}
	if e.NeverConnected {
		return "the host could not be reached"
	}
	return fmt.Sprintf("the client stopped (%s)", e.Freshness.Reason)
}

// Follow runs c until done says it is finished, ctx ends (nil), or the
// client cannot go on (*FollowEnded). done is asked after every published
// change, whatever the freshness; each (optional) sees every picture done
// sees, and once more the last one after the client stopped, so a caller
// that reports as it goes misses nothing. c must not be running already.
func Follow(ctx context.Context, c *Client, each func(Picture), done func(Picture, *Client) (bool, error)) error {
	if each == nil {
		each = func(Picture) {}
	}
	runCtx, cancel := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = c.Run(runCtx)
	}()
	defer func() {
		cancel()
		<-ran
		each(c.Current())
	}()
	for {
		s := c.Current()
		each(s)
		if err := followEnded(s); err != nil {
			return err
		}
		if fin, err := done(s, c); fin || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-c.Updates():
		}
	}
}

// followEnded is the final state a picture shows, if any.
func followEnded(s Picture) error {
	switch f := s.Freshness; {
	case f.State == Error:
		return &FollowEnded{Freshness: f}
	case f.State == Reconnecting && s.Durability == "":
		return &FollowEnded{Freshness: f, NeverConnected: true}
	}
	return nil
}
