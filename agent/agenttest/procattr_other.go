//go:build !linux

package agenttest

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process, if it was started (no process groups
// here).
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
