package cli

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/lookout-sh/lookout/host"
)

// A second `lookout` window on a data directory whose host another window
// runs is a client of that host. When that window quits, its host stops
// with it; this window then runs the host itself, on the same data
// directory, so that it and every other client carry on (they follow the
// host's new address: sync.Options.FollowLocalHost). Pending prompts are
// sent again by commandId, so none runs twice and none is lost.

// standbyPoll is how often a standby window tries to take the host over.
// An attempt while the other host lives is one failed file lock.
const standbyPoll = time.Second

// standby tries to start the host ho describes until it can, that is,
// until the host holding its data directory has stopped. It returns
// stop, which ends the attempts and closes the host if this window took
// it over.
func standby(ctx context.Context, ho host.Options, every time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan *host.Host, 1)
	go func() {
		done <- takeOverWhenFree(ctx, ho, every, log)
	}()
	return func() {
		cancel()
		if h := <-done; h != nil {
			h.Close()
		}
	}
}

// takeOverWhenFree is standby's loop: nil once ctx ends without a host.
func takeOverWhenFree(ctx context.Context, ho host.Options, every time.Duration, log *slog.Logger) *host.Host {
	t := time.NewTicker(every)
	defer t.Stop()
	warned := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		h, err := host.Start(ctx, ho)
		switch {
		case err == nil:
			log.Info("took the host over: the window that ran it quit", "url", h.URL(), "data", ho.DataDir)
			return h
		case errors.Is(err, host.ErrDataDirInUse):
		case !warned:
			warned = true // said once; the attempts go on
			log.Warn("could not take the host over", "err", err)
		}
	}
}
