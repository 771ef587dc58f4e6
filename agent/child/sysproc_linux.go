package child

import "syscall"

// sysProcAttr puts the child in its own process group and has the kernel
// kill it when the host dies, however it dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
