package agenttest

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// Command prepares bin with args, env and working directory dir, tied to
// t: it runs in a process group of its own, dies with the test process
// (Pdeathsig SIGKILL on Linux), and the whole group is killed when the
// test ends, or when the returned cancel is called. The caller starts it
// and must Wait for it (a reader of its stdout usually does). Agents start
// the commands they run in sessions of their own, so a command that
// outlives the agent is not killed by this.
func Command(t testing.TB, bin string, env []string, dir string, args ...string) (*exec.Cmd, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Dir = dir
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return KillGroup(cmd) }
	cmd.WaitDelay = 5 * time.Second
	t.Cleanup(func() {
		cancel()
		_ = KillGroup(cmd)
	})
	return cmd, cancel
}
