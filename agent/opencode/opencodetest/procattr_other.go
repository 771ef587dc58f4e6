//go:build !linux

package opencodetest

import (
	"io"
	"os/exec"
	"sync"
)

func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process, if it was started (no process groups
// here).
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
