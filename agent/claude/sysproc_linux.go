package claude

import "syscall"

// childSysProcAttr puts Claude Code in its own process group and has the
// kernel kill it when the host dies, however it dies.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
