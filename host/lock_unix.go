//go:build unix

package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/lookout-sh/lookout/internal/datadir"
)

// lockDataDir takes an exclusive advisory lock on dir/lock so that two hosts
// never append to one journal. The kernel releases it when the process
// dies, however it dies.
func lockDataDir(dir string) (release func(), err error) {
	f, err := os.OpenFile(datadir.Lock(dir), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("data directory %s is in use by another host (%w): %w", dir, err, ErrDataDirInUse)
	}
	return func() {
		f.Close() // closing the last descriptor releases the lock
	}, nil
}

// WaitDataDirFree returns once no host holds dir's lock, or when ctx
// ends, with ctx's error: a window standing by for the host of another
// waits on it instead of trying to start one again and again. It takes
// the lock as the kernel hands it over and lets go of it at once, for
// Start to take (another process may take it first). A wait that ctx
// ended lets go of the lock likewise whenever it gets it.
func WaitDataDirFree(ctx context.Context, dir string) error {
	f, err := os.OpenFile(dir+"/lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	got := make(chan error, 1)
	go func() {
		err := flockWait(int(f.Fd()))
		f.Close() // before Start tries the lock
		got <- err
	}()
	select {
	case err := <-got:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flockWait blocks until it holds an exclusive lock on fd.
func flockWait(fd int) error {
	for {
		if err := syscall.Flock(fd, syscall.LOCK_EX); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
