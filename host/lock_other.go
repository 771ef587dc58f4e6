//go:build !unix

package host

// lockDataDir is a no-op where advisory file locks are not available.
func lockDataDir(string) (func(), error) { return func() {}, nil }
