//go:build !unix

package sync

// hostHoldsLock cannot tell where advisory file locks are not available.
func hostHoldsLock(string) (held, known bool) { return false, false }
