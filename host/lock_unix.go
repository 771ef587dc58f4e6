//go:build unix

package host

import (
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
