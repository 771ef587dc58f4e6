//go:build unix && !linux

package opencode

import "syscall"

// childSysProcAttr puts the server in its own process group; without a
// parent-death signal on this system, Agent.Close is what stops it.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// childGroups finds nothing here: without /proc, commands OpenCode runs in
// sessions of their own are left to OpenCode's own abort.
func childGroups(int) []int { return nil }
