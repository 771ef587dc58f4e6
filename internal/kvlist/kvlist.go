// Package kvlist lists the live entries of a NATS JetStream key-value
// bucket, asking again when an attempt gets no answer (a request lost while
// a replicated bucket elects its leader).
package kvlist

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// attempt bounds one listing; a listing that takes longer is started again.
const attempt = 3 * time.Second

// Entries returns the entries of kv whose keys match filter (a subject
// filter: ">" for every key), deleted keys left out, until ctx ends.
func Entries(ctx context.Context, kv jetstream.KeyValue, filter string) ([]jetstream.KeyValueEntry, error) {
	for {
		actx, cancel := context.WithTimeout(ctx, attempt)
		es, err := entries(actx, kv, filter)
		cancel()
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return es, err
		}
	}
}

func entries(ctx context.Context, kv jetstream.KeyValue, filter string) ([]jetstream.KeyValueEntry, error) {
	w, err := kv.Watch(ctx, filter, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer func() { _ = w.Stop() }() // a listing that ended needs no watcher
	var out []jetstream.KeyValueEntry
	for {
		select {
		case e := <-w.Updates():
			if e == nil {
				return out, nil // the initial values are all there
			}
			out = append(out, e)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
