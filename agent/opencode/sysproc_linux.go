package opencode

import "syscall"

// childSysProcAttr puts the server in its own process group and has the
// kernel kill it when the host dies, however it dies.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
