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
//
// The window does not poll: it waits on the data directory's lock
// (host.WaitDataDirFree), which the kernel hands over when the other
// host lets go of it, however its process ends.

// standbyRetry is how long a standby window waits before it tries again
// after a start that failed for another reason than the lock.
const standbyRetry = time.Second

// standby starts the host ho describes as soon as the host holding its
// data directory has stopped. It returns stop, which ends the wait and
// closes the host if this window took it over.
func standby(ctx context.Context, ho host.Options, retry time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan *host.Host, 1)
	go func() {
		done <- takeOverWhenFree(ctx, ho, retry, log)
	}()
	return func() {
		cancel()
		if h := <-done; h != nil {
			h.Close()
		}
	}
}

// takeOverWhenFree is standby's loop: nil once ctx ends without a host.
func takeOverWhenFree(ctx context.Context, ho host.Options, retry time.Duration, log *slog.Logger) *host.Host {
	warned := false
	for {
		err := host.WaitDataDirFree(ctx, ho.DataDir)
		if ctx.Err() != nil {
			return nil
		}
		var h *host.Host
		if err == nil {
			h, err = host.Start(ctx, ho)
		}
		switch {
		case err == nil:
			log.Info("took the host over: the window that ran it quit", "url", h.URL(), "data", ho.DataDir)
			return h
		case errors.Is(err, host.ErrDataDirInUse):
			continue // another host took it first: wait for that one
		case !warned:
			warned = true // said once; the attempts go on
			log.Warn("could not take the host over", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(retry):
		}
	}
}
