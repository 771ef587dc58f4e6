package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// startProfile writes profiles of the whole process for
// docs/performance.md, each only when its variable is set: a CPU profile
// to the file named by $LOOKOUT_CPUPROFILE, and at exit a heap profile
// (what is still live after a collection, and every allocation made) to
// the file named by $LOOKOUT_MEMPROFILE; an execution trace (every
// goroutine's wake-ups, timers and system calls: what woke an idle
// process) to the file named by $LOOKOUT_TRACE. The returned stop writes
// them out; it is a no-op without the variables.
func startProfile() (stop func()) {
	stopCPU := startCPUProfile(os.Getenv("LOOKOUT_CPUPROFILE"))
	stopTrace := startTrace(os.Getenv("LOOKOUT_TRACE"))
	heap := os.Getenv("LOOKOUT_MEMPROFILE")
	return func() {
		stopCPU()
		stopTrace()
		if heap != "" {
			writeHeapProfile(heap)
		}
	}
}

func startCPUProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lookout: LOOKOUT_CPUPROFILE:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func startTrace(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = trace.Start(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lookout: LOOKOUT_TRACE:", err)
		return func() {}
	}
	return func() {
		trace.Stop()
		f.Close()
	}
}

func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		runtime.GC() // the profile's live figures are as of the last collection
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lookout: LOOKOUT_MEMPROFILE:", err)
	}
}
