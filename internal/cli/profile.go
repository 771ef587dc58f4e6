package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfile writes profiles of the whole process for
// docs/performance.md, each only when its variable is set: a CPU profile
// to the file named by $LOOKOUT_CPUPROFILE, and at exit a heap profile
// (what is still live after a collection, and every allocation made) to
// the file named by $LOOKOUT_MEMPROFILE. The returned stop writes them
// out; it is a no-op without the variables.
func startProfile() (stop func()) {
	stopCPU := startCPUProfile(os.Getenv("LOOKOUT_CPUPROFILE"))
	heap := os.Getenv("LOOKOUT_MEMPROFILE")
	return func() {
		stopCPU()
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
