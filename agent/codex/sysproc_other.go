//go:build unix && !linux

package codex

import "syscall"

// childSysProcAttr puts the app-server in its own process group; without a
// parent-death signal on this system, Agent.Close is what stops it.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
