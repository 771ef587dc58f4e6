package child

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/lookout-sh/lookout/internal/leakcheck"
)

// helperEnv makes the test binary a child for the tests (see helperChild).
const helperEnv = "CHILD_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode, ok := os.LookupEnv(helperEnv); ok {
		os.Exit(helperChild(mode))
	}
	leakcheck.Main(m)
}

// quickLines is how many lines the "print-and-exit" child prints before
// its last one: well under a pipe's buffer, so it exits without waiting
// for a reader.
const quickLines = 300

// helperChild plays a child. "print-and-exit" prints quickLines numbered
// lines and "last", then exits at once. "leave-a-holder" starts a sleep
// in a session of its own holding its stdout and stderr, prints the
// sleep's pid and "last", and exits.
func helperChild(mode string) int {
	switch mode {
	case "print-and-exit":
		for i := range quickLines {
			fmt.Printf("line %d\n", i)
		}
		fmt.Println("last")
		return 0
	case "leave-a-holder":
		holder := exec.Command("sleep", "60")
		holder.Stdout, holder.Stderr = os.Stdout, os.Stderr
		holder.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := holder.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(holder.Process.Pid)
		fmt.Println("last")
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}
