package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startProfile writes a CPU profile of the whole process to the file named
// by $LOOKOUT_CPUPROFILE, when it is set (docs/performance.md: how the
// rendering benchmark's numbers were explained). The returned stop writes
// it out; it is a no-op without the variable.
func startProfile() (stop func()) {
	path := os.Getenv("LOOKOUT_CPUPROFILE")
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
