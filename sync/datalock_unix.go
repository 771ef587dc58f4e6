//go:build unix

package sync

import (
	"errors"
	"os"
	"syscall"

	"github.com/lookout-sh/lookout/internal/datadir"
)

// hostHoldsLock reports whether a host holds dir's lock (dir/lock, which a
// durable host keeps flocked while it runs); known is false when that
// cannot be told. The probe takes a shared lock for an instant and
// releases it.
func hostHoldsLock(dir string) (held, known bool) {
	f, err := os.Open(datadir.Lock(dir))
	if errors.Is(err, os.ErrNotExist) {
		return false, true
	}
	if err != nil {
		return false, false
	}
	defer f.Close()
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); {
	case err == nil:
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false, true
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true, true
	}
	return false, false
}
