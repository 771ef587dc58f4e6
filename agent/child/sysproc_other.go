//go:build unix && !linux

package child

import "syscall"

// sysProcAttr puts the child in its own process group; without a
// parent-death signal on this system, the bridge's Close is what stops
// it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// childGroups finds nothing here: without /proc, commands the child runs
// in sessions of their own are left to it.
func childGroups(int) []int { return nil }
