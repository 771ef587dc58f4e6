package cli

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
)

// standby starts no host while another holds the data directory, starts
// one on it once that host stops, and stop closes what it started.
func TestStandbyTakesTheDataDirectoryOverWhenFree(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	first, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	was, _ := host.RunningURL(dir)
	stop := standby(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: dir}, 20*time.Millisecond, log)
	time.Sleep(200 * time.Millisecond) // it waits on the lock meanwhile
	if u, _ := host.RunningURL(dir); u != was {
		t.Fatalf("the data directory records %s while the first host (%s) runs", u, was)
	}
	first.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if u, err := host.RunningURL(dir); err == nil && u != was {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("standby never took the host over")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	// The taken-over host is closed: the data directory is free again.
	h, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatalf("after stop, the data directory is still held: %v", err)
	}
	h.Close()
}

// stop ends a standby that is still waiting for the data directory, at
// once, and it leaves the host that holds it alone.
func TestStandbyStopsWhileWaiting(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	first, err := host.Start(t.Context(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	was, _ := host.RunningURL(dir)
	stop := standby(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: dir}, 20*time.Millisecond, log)
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("stop waited for the data directory")
	}
	if u, _ := host.RunningURL(dir); u != was {
		t.Fatalf("the data directory records %s, want the first host's %s", u, was)
	}
}
