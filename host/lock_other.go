//go:build !unix

package host

import "context"

// lockDataDir is a no-op where advisory file locks are not available.
func lockDataDir(string) (func(), error) { return func() {}, nil }

// WaitDataDirFree returns at once where data directories are not locked
// (with ctx's error, if it ended).
func WaitDataDirFree(ctx context.Context, _ string) error { return ctx.Err() }
