// Package leakcheck fails a test binary that leaves goroutines running or
// file descriptors open after its tests: call Main from TestMain.
package leakcheck

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// fdSlack is how many more descriptors than at the start may stay open
// (the runtime's own, opened lazily: epoll, a pipe for the netpoller).
const fdSlack = 4

var atEnd struct {
	sync.Mutex
	fns    []func()
	ignore []string
}

// Ignore adds functions whose goroutines may outlive the tests, as Main's
// ignore does, for a package that a test binary imports (a server that
// leaves a goroutine or two behind after its shutdown).
func Ignore(fns ...string) {
	atEnd.Lock()
	defer atEnd.Unlock()
	atEnd.ignore = append(atEnd.ignore, fns...)
}

// AtEnd registers fn to run after the tests, before the checks: what
// lives for the whole test binary (a shared server) stops there.
func AtEnd(fn func()) {
	atEnd.Lock()
	defer atEnd.Unlock()
	atEnd.fns = append(atEnd.fns, fn)
}

// Main runs the tests, then fails the binary (exit 1) when goroutines are
// still running or descriptors still open a few seconds after the last
// test, listing what leaked. ignore names functions whose goroutines are
// expected to outlive the tests (a package-level cache's janitor).
func Main(m *testing.M, ignore ...string) {
	before := openFDs()
	code := m.Run()
	atEnd.Lock()
	for _, fn := range atEnd.fns {
		fn()
	}
	ignore = append(ignore, atEnd.ignore...)
	atEnd.Unlock()
	if code != 0 {
		os.Exit(code)
	}
	var opts []goleak.Option // Find retries for a while: goroutines that are ending get to end
	for _, fn := range ignore {
		opts = append(opts, goleak.IgnoreAnyFunction(fn))
	}
	if err := goleak.Find(opts...); err != nil {
		fmt.Fprintf(os.Stderr, "leakcheck: goroutines left running after the tests:\n%v\n", err)
		os.Exit(1)
	}
	deadline := time.Now().Add(5 * time.Second)
	after := openFDs()
	for after > before+fdSlack && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		after = openFDs()
	}
	if after > before+fdSlack {
		fmt.Fprintf(os.Stderr, "leakcheck: %d file descriptors open after the tests, %d before\n%s", after, before, fdList())
		os.Exit(1)
	}
	os.Exit(0)
}

// openFDs counts this process's open descriptors (-1 where /proc is not
// there, which disables the check).
func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1 << 20
	}
	return len(entries)
}

func fdList() string {
	entries, _ := os.ReadDir("/proc/self/fd")
	s := ""
	for _, e := range entries {
		target, _ := os.Readlink("/proc/self/fd/" + e.Name())
		s += "  " + e.Name() + " -> " + target + "\n"
	}
	return s
}
