package jsretry

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func TestTransient(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{nats.ErrTimeout, true},
		{fmt.Errorf("publish: %w", nats.ErrNoResponders), true},
		{context.DeadlineExceeded, true},
		{nats.ErrConnectionReconnecting, true},
		{&jetstream.APIError{ErrorCode: ClusterNotAvailable}, true},
		{fmt.Errorf("bucket x: %w", &jetstream.APIError{ErrorCode: NoPlacement}), true},
		{&jetstream.APIError{ErrorCode: jetstream.JSErrCodeStreamWrongLastSequence}, false},
		{jetstream.ErrKeyNotFound, false},
		{errors.New("no such thing"), false},
	}
	for _, c := range cases {
		if got := Transient(c.err); got != c.want {
			t.Errorf("Transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestDoRetriesOnlyWhatRetryAccepts(t *testing.T) {
	calls := 0
	err := Do(context.Background(), nil, func(context.Context) error {
		calls++
		if calls < 3 {
			return nats.ErrTimeout
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("err %v after %d calls, want success on the third", err, calls)
	}
	calls = 0
	final := errors.New("refused")
	if err := Do(context.Background(), nil, func(context.Context) error { calls++; return final }); !errors.Is(err, final) || calls != 1 {
		t.Fatalf("err %v after %d calls, want the refusal at once", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls = 0
	if err := Do(ctx, nil, func(context.Context) error { calls++; return nats.ErrTimeout }); err == nil || calls != 1 {
		t.Fatalf("a cancelled context: err %v after %d calls", err, calls)
	}
}
