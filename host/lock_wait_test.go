//go:build unix

package host_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
)

// WaitDataDirFree waits while a host holds the data directory, returns
// once it has closed, and leaves the lock for the next host to take.
func TestWaitDataDirFreeReturnsWhenTheHostCloses(t *testing.T) {
	dir := t.TempDir()
	h, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	freed := make(chan error, 1)
	go func() { freed <- host.WaitDataDirFree(t.Context(), dir) }()
	select {
	case err := <-freed:
		t.Fatalf("the wait returned (%v) while the host held the data directory", err)
	case <-time.After(200 * time.Millisecond):
	}
	h.Close()
	select {
	case err := <-freed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not return once the host closed")
	}
	next, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatalf("after the wait, the data directory is still held: %v", err)
	}
	next.Close()
}

// A wait ends with its context, and once it got the lock lets go of it.
func TestWaitDataDirFreeEndsWithItsContext(t *testing.T) {
	dir := t.TempDir()
	h, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if err := host.WaitDataDirFree(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the wait ended with %v, want its context's deadline", err)
	}
	h.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		next, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
		if err == nil {
			next.Close()
			return
		}
		if !errors.Is(err, host.ErrDataDirInUse) || time.Now().After(deadline) {
			t.Fatalf("the abandoned wait keeps the data directory: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
