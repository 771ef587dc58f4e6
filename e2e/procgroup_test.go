package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	gosync "sync"
	"syscall"
	"testing"
	"time"
)

// procGroup follows the processes a benchmark run started: every process
// whose environment holds its tag, and their descendants. A program
// passes its environment on to its children (and Lookout to the agent
// it runs), so the group holds a TUI, the daemon it started and anything
// they run, even after a daemon leaves its parent.
//
// It samples each member's CPU (utime+stime of all its threads, from
// /proc/PID/stat) every procPoll, so a process that exits is counted up
// to its last sample: one that lives less than procPoll may be missed.
type procGroup struct {
	tag  string // the NAME=value a member's environment holds
	stop chan struct{}
	done chan struct{}

	mu gosync.Mutex
	// tagged: the processes whose environment was read, by key and name:
	// an exec renames a process and may give it another environment (a
	// shell forks, then execs `env TAG=… lookout`).
	tagged map[taggedKey]bool
	last   map[procKey]procSample
	base   map[procKey]time.Duration // CPU at mark
}

// procPoll is how often a procGroup samples its processes.
const procPoll = 100 * time.Millisecond

// procKey names one process: a pid and its start time, so a pid the
// kernel reuses is another process.
type procKey struct {
	pid   int
	start uint64
}

type procSample struct {
	ppid int
	comm string
	cpu  time.Duration
}

// procTagVar is the variable that tags a benchmark run's processes. Not
// LOOKOUT_*: Lookout does not pass those on to its agent.
const procTagVar = "E2E_BENCH_TAG"

// newProcTag is a tag unique to this test process and n.
func newProcTag(n int) string { return fmt.Sprintf("%s=%d-%d", procTagVar, os.Getpid(), n) }

// watchProcs starts sampling the processes tagged tag; the test's cleanup
// stops it and kills what is left of them.
func watchProcs(t *testing.T, tag string) *procGroup {
	g := &procGroup{tag: tag, stop: make(chan struct{}), done: make(chan struct{}),
		tagged: map[taggedKey]bool{}, last: map[procKey]procSample{}}
	go g.run()
	t.Cleanup(g.kill)
	return g
}

func (g *procGroup) run() {
	defer close(g.done)
	for {
		g.sample()
		select {
		case <-g.stop:
			return
		case <-time.After(procPoll):
		}
	}
}

// sample reads every process once and records the members' CPU.
func (g *procGroup) sample() {
	all := map[int]procKey{}
	stats := map[procKey]procSample{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		k, s, ok := readProcStat(pid)
		if !ok {
			continue
		}
		all[pid], stats[k] = k, s
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var member func(k procKey, depth int) bool
	member = func(k procKey, depth int) bool {
		if g.isTagged(k, stats[k].comm) {
			return true
		}
		parent, ok := all[stats[k].ppid]
		return ok && depth < 64 && parent.pid > 1 && member(parent, depth+1)
	}
	for k, s := range stats {
		if member(k, 0) {
			g.last[k] = s
		}
	}
}

// taggedKey is a process as one program: its key and its name.
type taggedKey struct {
	procKey
	comm string
}

// isTagged reads k's environment once per program it runs.
func (g *procGroup) isTagged(k procKey, comm string) bool {
	tk := taggedKey{k, comm}
	if v, ok := g.tagged[tk]; ok {
		return v
	}
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", k.pid))
	v := err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00"+g.tag+"\x00"))
	g.tagged[tk] = v
	return v
}

// mark starts the measurement: CPU counts from here.
func (g *procGroup) mark() {
	g.sample()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.base = map[procKey]time.Duration{}
	for k, s := range g.last {
		g.base[k] = s.cpu
	}
}

// procCPUs is the CPU each process of a group used since mark, by pid.
type procCPUs map[int]procUse

type procUse struct {
	comm string
	cpu  time.Duration
}

// used samples once more and reports each member's CPU since mark.
func (g *procGroup) used() procCPUs {
	g.sample()
	g.mu.Lock()
	defer g.mu.Unlock()
	out := procCPUs{}
	for k, s := range g.last {
		u := out[k.pid]
		u.comm = s.comm
		u.cpu += s.cpu - g.base[k]
		out[k.pid] = u
	}
	return out
}

// of is pid's CPU.
func (c procCPUs) of(pid int) time.Duration { return c[pid].cpu }

// except is the CPU of every process but pid.
func (c procCPUs) except(pid int) time.Duration {
	var d time.Duration
	for p, u := range c {
		if p != pid {
			d += u.cpu
		}
	}
	return d
}

// String lists the processes and their CPU, for the log.
func (c procCPUs) String() string {
	var parts []string
	for p, u := range c {
		parts = append(parts, fmt.Sprintf("%s[%d] %.2fs", u.comm, p, u.cpu.Seconds()))
	}
	return strings.Join(parts, ", ")
}

// kill stops sampling and kills every member still alive (a daemon
// outlives the TUI that started it).
func (g *procGroup) kill() {
	select {
	case <-g.stop:
		return
	default:
	}
	close(g.stop)
	<-g.done
	g.sample()
	g.mu.Lock()
	defer g.mu.Unlock()
	for k := range g.last {
		if now, _, ok := readProcStat(k.pid); ok && now == k {
			_ = syscall.Kill(k.pid, syscall.SIGKILL)
		}
	}
}

// readProcStat reads a process's key, parent, name and CPU.
func readProcStat(pid int) (procKey, procSample, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procKey{}, procSample{}, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procKey{}, procSample{}, false
	}
	// After the name: state ppid pgrp ... utime (f[11]) stime (f[12]) ...
	// starttime (f[19]).
	f := strings.Fields(s[end+1:])
	if len(f) < 20 {
		return procKey{}, procSample{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return procKey{pid: pid, start: start}, procSample{ppid: ppid, comm: s[open+1 : end], cpu: time.Duration(ut+st) * time.Second / clockTicks}, true
}
