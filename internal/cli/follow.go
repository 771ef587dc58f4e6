package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// follow runs a client until done says so (it is asked after every
// published change, whatever the freshness) or an unrecoverable condition: a persistent refusal, or a host
// that cannot be reached before the first connection. flush (optional) is
// called after every change. Every error the client records (a frame it
// could not fold, a refused command) is reported on errw as it happens,
// once each (reportErrors). Interrupt (SIGINT) ends it quietly.
func follow(parent context.Context, o sync.Options, errw io.Writer, flush func(), done func(sync.Picture, *sync.Client) (bool, error)) error {
	c, err := sync.New(o)
	if err != nil {
		return usageErr(err)
	}
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt)
	defer stop()
	runCtx, cancel := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = c.Run(runCtx)
	}()
	var seen uint64
	defer func() {
		cancel()
		<-ran
		if flush != nil {
			flush()
		}
		seen = reportErrors(errw, c.Current(), seen)
	}()
	for {
		s := c.Current()
		if flush != nil {
			flush()
		}
		seen = reportErrors(errw, s, seen)
		switch f := s.Freshness; {
		case f.State == sync.Error:
			return freshnessErr(f)
		case f.State == sync.Reconnecting && s.Durability == "":
			// Never connected: for a script, unreachable is final.
			return &exitError{code: exitUnreachable, err: errors.New(f.Err)}
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

// reportErrors writes the errors s recorded after the first seen to w,
// one line each ("lookout: client error: ..."; the text may quote the
// host, so it is one clean line, termtext.Line), and returns the new
// count seen.
func reportErrors(w io.Writer, s sync.Picture, seen uint64) uint64 {
	errs, lost := s.ErrorsSince(seen)
	if lost > 0 {
		fmt.Fprintf(w, "lookout: client error: %d more errors were recorded than can be shown\n", lost)
	}
	for _, e := range errs {
		fmt.Fprintf(w, "lookout: client error: %s\n", termtext.Line(e))
	}
	return max(seen, s.ErrorCount)
}

func freshnessErr(f sync.Freshness) error {
	code := exitFailure
	switch f.Reason {
	case sync.ReasonAuth:
		code = exitAuth
	case sync.ReasonNoSession:
		code = exitNoSession
	case sync.ReasonUnreachable, sync.ReasonEndpoint:
		code = exitUnreachable
	}
	return &exitError{code: code, err: errors.New(f.Err)}
}

// isIdle: caught up (live) with no active and no queued turn.
func isIdle(s sync.Picture) bool {
	return s.Freshness.State == sync.Live && s.View.ActiveTurn == nil && len(s.View.QueuedTurns) == 0
}
