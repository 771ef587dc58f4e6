package natstest

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WaitPlaceable waits until the cluster at urls places a stream on
// replicas peers. A meta leader that knows every peer may still count one
// as offline for a moment after start or heal; a test that creates its
// buckets then fails with "no suitable peers for placement", which is the
// cluster's state, not the code under test.
func WaitPlaceable(urls string, replicas int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := placeProbe(urls, replicas)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: the cluster cannot place a %d-replica stream: %w", replicas, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// placeProbe creates and deletes a stream of replicas peers.
func placeProbe(urls string, replicas int) error {
	nc, err := nats.Connect(urls)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	name := fmt.Sprintf("probe%d", time.Now().UnixNano())
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Replicas: replicas}); err != nil {
		return err
	}
	return js.DeleteStream(ctx, name)
}
