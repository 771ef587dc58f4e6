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

// follow runs a client for a command (sync.Follow) until done says so or
// the client cannot go on, which becomes the matching exit code. flush
// (optional) is called after every change. Every error the client records
// (a frame it could not fold, a refused command) is reported on errw as it
// happens, once each (reportErrors). Interrupt (SIGINT) ends it quietly.
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
	var seen uint64
	err = sync.Follow(ctx, c, func(s sync.Picture) {
		if flush != nil {
			flush()
		}
		seen = reportErrors(errw, s, seen)
	}, done)
	var ended *sync.FollowEnded
	if errors.As(err, &ended) {
		return followExit(ended)
	}
	return err
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

// followExit is the exit code of a client that could not go on.
func followExit(e *sync.FollowEnded) error {
	if e.NeverConnected {
		return &exitError{code: exitUnreachable, err: e}
	}
	return freshnessErr(e.Freshness)
}

func freshnessErr(f sync.Freshness) error {
	code := exitFailure
	switch f.Reason {
	case sync.ReasonAuth, sync.ReasonUnproven:
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
