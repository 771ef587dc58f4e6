//go:build unix && !linux

package opencode

import "syscall"

// childSysProcAttr puts the server in its own process group; without a
// parent-death signal on this system, Agent.Close is what stops it.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
