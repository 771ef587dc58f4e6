//go:build unix && !linux

package claude

import "syscall"

// childSysProcAttr puts Claude Code in its own process group; without a
// parent-death signal on this system, Agent.Close is what stops it.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
