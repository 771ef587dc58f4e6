package child

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
)

func TestChildGroupsFindsCommandsInSessionsOfTheirOwn(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait() // killed: its error says so
	}()
	if g := childGroups(os.Getpid()); !slices.Contains(g, cmd.Process.Pid) {
		t.Errorf("childGroups = %v, want it to hold %d", g, cmd.Process.Pid)
	}
}
