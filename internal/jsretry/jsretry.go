// Package jsretry is the one retry loop of the JetStream clients (the
// host's journal and the fleet's buckets): a replicated stream or bucket
// electing its leader, or a NATS connection reconnecting, answers nothing
// for a moment, and the request is sent again rather than failed.
package jsretry

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Attempt bounds one request: a request lost while the cluster changes
// leaders is sent again rather than waited for.
const Attempt = 2 * time.Second

// pause is the wait between two attempts.
const pause = 100 * time.Millisecond

// Do runs op, each attempt bounded by Attempt, until it succeeds, fails
// with an error retry does not accept (nil retry: Transient), or ctx ends.
func Do(ctx context.Context, retry func(error) bool, op func(context.Context) error) error {
	if retry == nil {
		retry = Transient
	}
	for {
		actx, cancel := context.WithTimeout(ctx, Attempt)
		err := op(actx)
		cancel()
		if err == nil || !retry(err) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// ClusterNotAvailable is "JetStream system temporarily unavailable": a
// cluster whose meta leader is being elected (a node restarted).
const ClusterNotAvailable jetstream.ErrorCode = 10008

// NoPlacement is "no suitable peers for placement": a cluster that cannot
// place a replicated stream or bucket now, most often because it still
// counts a peer offline after a start or a heal (measured in CI right
// after every node answered). Its callers bound their retries (a fleet
// join 30 s, the journal's opening 30 s), so a cluster that can never
// place it (too few nodes for the replicas) is still reported.
const NoPlacement jetstream.ErrorCode = 10005

// Transient reports whether err may pass on its own: a timeout, no
// responders, a connection reconnecting, a cluster electing its leader or
// not placing replicas yet.
func Transient(err error) bool {
	return errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrConnectionReconnecting) || errors.Is(err, nats.ErrDisconnected) ||
		HasCode(err, ClusterNotAvailable) || HasCode(err, NoPlacement)
}

// HasCode reports whether err is a JetStream API error with code.
func HasCode(err error, code jetstream.ErrorCode) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == code
}
