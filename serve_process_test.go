package main

import (
	"io"
	"os/exec"
	"testing"

	"github.com/lookout-sh/lookout/internal/servetest"
)

// buildLookout is the lookout binary, built once per test binary.
func buildLookout(t testing.TB) string {
	t.Helper()
	return servetest.Binary(t)
}

// startServe runs `bin serve args...` with env (nil: this process's) and
// returns the process and the URL it reports listening on; the process is
// killed when the test ends.
func startServe(t testing.TB, bin string, env []string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	return startServeLogging(t, bin, env, nil, args...)
}

// startServeLogging is startServe with the process's log (stderr) written
// to log.
func startServeLogging(t testing.TB, bin string, env []string, log io.Writer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	p := servetest.Start(t, bin, servetest.Options{Env: env, Stderr: log}, args...)
	return p.Cmd, p.URL
}
