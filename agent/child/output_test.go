package child

import (
	"errors"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// startHelper runs the test binary as a child in the given helper mode.
func startHelper(t *testing.T, mode string) *Process {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// GORACE: a race-enabled child would sleep a second before it exits.
	p, err := Start(Command{Bin: self, Env: Env(nil, map[string]string{helperEnv: mode, "GORACE": "atexit_sleep_ms=0"})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// readAll reads the child's stdout to its end: the number of lines, the
// last one, and why the reading ended.
func readAll(p *Process) (n int, last string, err error) {
	err = ReadLines(p.Stdout(), 1<<10, func(b []byte) {
		n++
		last = string(b)
	}, func([]byte) { n++ })
	return n, last, err
}

func TestTheLastLinesOfAChildThatExitsAtOnceAreRead(t *testing.T) {
	for _, c := range []struct {
		name          string
		readAfterExit bool
	}{
		{"read while it runs", false},
		{"read after it was waited for", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			for run := range 50 {
				p := startHelper(t, "print-and-exit")
				if c.readAfterExit {
					<-p.Exited()
				}
				n, last, err := readAll(p)
				if n != quickLines+1 || last != "last" {
					t.Fatalf("run %d: read %d lines ending %q (%v), want %d ending \"last\"", run, n, last, err, quickLines+1)
				}
			}
		})
	}
}

func TestOutputHeldByAProcessTheChildStartedIsAbandoned(t *testing.T) {
	p := startHelper(t, "leave-a-holder")
	var lines []string
	done := make(chan error, 1)
	go func() {
		done <- ReadLines(p.Stdout(), 1<<10, func(b []byte) { lines = append(lines, string(b)) }, func([]byte) {})
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the reading did not end while a process the child started held its output")
	}
	if len(lines) != 2 || lines[1] != "last" {
		t.Fatalf("read %q, want the holder's pid and \"last\"", lines)
	}
	holder, convErr := strconv.Atoi(lines[0])
	if convErr != nil {
		t.Fatalf("the holder's pid: %v", convErr)
	}
	defer func() { _ = syscall.Kill(holder, syscall.SIGKILL) }()
	if !errors.Is(err, ErrOutputAbandoned) {
		t.Errorf("the reading ended with %v, want ErrOutputAbandoned", err)
	}
	// The holder has the child's stderr too: Wait must not wait for it.
	select {
	case <-p.Exited():
	case <-time.After(time.Minute):
		t.Fatal("the child was not waited for while a process it started held its stderr")
	}
	if r := p.ExitReason(); r != "it exited" {
		t.Errorf("ExitReason = %q", r)
	}
}
