//go:build !linux

package agenttest

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

// KillGroup kills cmd's process, if it was started (no process groups
// here).
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
