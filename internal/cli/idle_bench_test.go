//go:build linux

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/servetest"
)

// BenchmarkIdleWakeups measures what Lookout costs while nothing happens
// (docs/performance.md, "Idle"): it builds lookout, starts `lookout serve
// --no-auth --ephemeral` ("host") and `lookout attach` on its demo session
// ("client"), the one-process `lookout` ("lookout": its own host and UI)
// on a data directory of its own, a second `lookout` on that directory
// ("standby": a client of the first, ready to take its host over), and,
// for comparison, testdata/idletea ("bubbletea"), a Bubble Tea program
// whose model never changes; the UIs on 120x40 pseudo-terminals. Once
// every screen has settled it reads /proc for each process over one
// window (60 s; LOOKOUT_IDLE_WINDOW sets another) and reports, per
// process: CPU (utime+stime, in 10 ms ticks) and the time its threads
// ran (schedstat, in ns) as a share of a core, context switches
// (voluntary and not, summed over its threads) a second, and the bytes it
// wrote to its terminal. LOOKOUT_IDLE_BIN runs a lookout built elsewhere
// (an older commit) instead of building the tree.
//
//	go test ./internal/cli -run '^$' -bench IdleWakeups -benchtime 1x -timeout 5m
func BenchmarkIdleWakeups(b *testing.B) {
	window := idleBenchWindow(b)
	bin := os.Getenv("LOOKOUT_IDLE_BIN")
	if bin == "" {
		bin = buildLookout(b)
	}
	tea := buildIdleTea(b)
	sum := map[string]idleCost{}
	for range b.N {
		b.Logf("load average at the start: %s", loadAverage())
		costs := measureIdle(b, bin, tea, window)
		for _, name := range idleProcesses {
			c := costs[name]
			b.Logf("%-9s cpu %5.2f %% (sched %.3f %%), %6.1f wakeups/s, %d bytes to the terminal",
				name, c.cpuShare(window), c.runShare(window), c.perSecond(window), c.written)
			sum[name] = sum[name].plus(c)
		}
		b.Logf("load average at the end: %s", loadAverage())
	}
	n := time.Duration(b.N)
	for _, name := range idleProcesses {
		c := sum[name]
		b.ReportMetric(c.cpuShare(n*window), name+"-cpu-%")
		b.ReportMetric(c.runShare(n*window), name+"-sched-%")
		b.ReportMetric(c.perSecond(n*window), name+"-wakeups/s")
		b.ReportMetric(float64(c.written)/float64(b.N), name+"-term-B")
	}
}

// idleProcesses names the processes measureIdle watches, in the order
// they are reported.
var idleProcesses = []string{"client", "host", "lookout", "standby", "bubbletea"}

// idleBenchWindow is how long the idle processes are watched.
func idleBenchWindow(b *testing.B) time.Duration {
	s := os.Getenv("LOOKOUT_IDLE_WINDOW")
	if s == "" {
		return time.Minute
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < time.Second {
		b.Fatalf("LOOKOUT_IDLE_WINDOW=%q: want a duration of a second or more", s)
	}
	return d
}

// buildIdleTea builds testdata/idletea.
func buildIdleTea(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "idletea")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/idletea").CombinedOutput(); err != nil {
		b.Fatalf("build idletea: %v\n%s", err, out)
	}
	return bin
}

// measureIdle starts the five processes, waits for them to settle and
// returns what each used over window, by name.
func measureIdle(b *testing.B, bin, tea string, window time.Duration) map[string]idleCost {
	addr, sid, host := startIdleHost(b, bin)
	defer host.stop()
	client := startOnPTY(b, bin, "attach", "ws://"+addr, "--session", sid, "--theme", "dark")
	defer client.stop()
	data := b.TempDir()
	one := startOnPTY(b, bin, "--data", data, "--theme", "dark")
	defer one.stop()
	plain := startOnPTY(b, tea)
	defer plain.stop()
	client.waitFor(b, "the attached session", "ephemeral host")
	one.waitFor(b, "the embedded host's session", "embedded host")
	// A second lookout on the same data directory attaches to that host
	// and stands by to take it over.
	standby := startOnPTY(b, bin, "--data", data, "--theme", "dark")
	defer standby.stop()
	standby.waitFor(b, "the standby's session picker", "Sessions on")
	standby.write(b, "\r")
	standby.waitFor(b, "the standby's session", "enter sends")
	plain.waitFor(b, "the idle Bubble Tea program", "idle bubble tea")
	time.Sleep(3 * time.Second) // the first frames, the history's layout

	type watched struct {
		name    string
		pid     int
		term    *attachProc // nil: no terminal
		before  procUsage
		written int
	}
	ws := []*watched{
		{name: "client", pid: client.pid, term: client},
		{name: "host", pid: host.cmd.Process.Pid},
		{name: "lookout", pid: one.pid, term: one},
		{name: "standby", pid: standby.pid, term: standby},
		{name: "bubbletea", pid: plain.pid, term: plain},
	}
	for _, w := range ws {
		w.before = readProcUsage(w.pid)
		w.written = w.term.outputLen()
	}
	time.Sleep(window)
	costs := map[string]idleCost{}
	for _, w := range ws {
		c := costBetween(w.before, readProcUsage(w.pid))
		c.written = w.term.outputLen() - w.written
		costs[w.name] = c
	}
	return costs
}

// idleHost is a `lookout serve --no-auth --ephemeral` process.
type idleHost struct{ cmd *exec.Cmd }

func (h idleHost) stop() {
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
}

// startIdleHost starts an ephemeral host and returns its address and its
// demo session.
func startIdleHost(b *testing.B, bin string) (addr, session string, h idleHost) {
	sid := make(chan string, 1)
	p := servetest.Start(b, bin, servetest.Options{Line: func(line string) {
		if s, ok := strings.CutPrefix(line, "demo session: "); ok {
			sid <- s
		}
	}}, "--addr", "127.0.0.1:0", "--no-auth", "--ephemeral")
	h = idleHost{p.Cmd}
	select {
	case session = <-sid:
	case <-time.After(30 * time.Second):
		h.stop()
		b.Fatal("the host did not report its demo session")
	}
	return p.Addr(), session, h
}

// outputLen is how many bytes the process has written to its terminal
// so far; 0 for a process without one.
func (a *attachProc) outputLen() int {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.seen)
}

// procUsage is what /proc says a process has used so far.
type procUsage struct {
	cpu      time.Duration    // utime+stime of the whole process
	run      map[string]int64 // ns each thread has run (schedstat), by thread id
	switches map[string]int64 // context switches of each thread, by thread id
}

// readProcUsage reads pid's usage; a thread that ends while it is read
// is left out.
func readProcUsage(pid int) procUsage {
	u := procUsage{cpu: procCPUTime(pid), run: map[string]int64{}, switches: map[string]int64{}}
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, _ := os.ReadDir(dir)
	for _, t := range tasks {
		if data, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat")); err == nil {
			if f := strings.Fields(string(data)); len(f) > 0 {
				u.run[t.Name()], _ = strconv.ParseInt(f[0], 10, 64)
			}
		}
		if data, err := os.ReadFile(filepath.Join(dir, t.Name(), "status")); err == nil {
			u.switches[t.Name()] = contextSwitches(string(data))
		}
	}
	return u
}

// contextSwitches sums a /proc status file's voluntary and involuntary
// context switches.
func contextSwitches(status string) int64 {
	var n int64
	for _, line := range strings.Split(status, "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if ok && (name == "voluntary_ctxt_switches" || name == "nonvoluntary_ctxt_switches") {
			v, _ := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			n += v
		}
	}
	return n
}

// idleCost is what a process used over a window.
type idleCost struct {
	cpu, run time.Duration
	switches int64
	written  int // bytes to its terminal
}

// costBetween is the use from a to b: a thread born in between counts
// from zero.
func costBetween(a, b procUsage) idleCost {
	c := idleCost{cpu: b.cpu - a.cpu}
	for tid, ns := range b.run {
		c.run += time.Duration(ns - a.run[tid])
	}
	for tid, n := range b.switches {
		c.switches += n - a.switches[tid]
	}
	return c
}

func (c idleCost) plus(d idleCost) idleCost {
	return idleCost{cpu: c.cpu + d.cpu, run: c.run + d.run, switches: c.switches + d.switches, written: c.written + d.written}
}

// cpuShare is the process's CPU as a percentage of one core over window.
func (c idleCost) cpuShare(window time.Duration) float64 {
	return 100 * c.cpu.Seconds() / window.Seconds()
}

// runShare is cpuShare from schedstat, precise to the nanosecond.
func (c idleCost) runShare(window time.Duration) float64 {
	return 100 * c.run.Seconds() / window.Seconds()
}

// perSecond is the context switches a second over window.
func (c idleCost) perSecond(window time.Duration) float64 {
	return float64(c.switches) / window.Seconds()
}

// loadAverage is /proc/loadavg's first three fields.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	return strings.Join(f[:min(3, len(f))], " ")
}
