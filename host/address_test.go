package host_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// A running host records its URL in its data directory; a second host on
// the same directory is refused with ErrDataDirInUse and can find the
// first through that record; closing removes it.
func TestRunningHostRecordsItsAddress(t *testing.T) {
	dir := t.TempDir()
	h := hosttest.Start(t, host.Options{DataDir: dir})
	u, err := host.RunningURL(dir)
	if err != nil || u != h.URL() {
		t.Fatalf("RunningURL = %q, %v; want %q", u, err, h.URL())
	}
	_, err = host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: dir})
	if !errors.Is(err, host.ErrDataDirInUse) {
		t.Fatalf("second host: %v, want ErrDataDirInUse", err)
	}
	h.Close()
	if _, err := os.Stat(host.AddressPath(dir)); !os.IsNotExist(err) {
		t.Fatalf("address file left after Close: %v", err)
	}
	if _, err := host.RunningURL(dir); err == nil {
		t.Fatal("RunningURL after Close")
	}
}
