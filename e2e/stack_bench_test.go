package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// TestAgentStackBench is the whole-stack benchmark (docs/performance.md,
// "The whole stack, with each real agent"). It runs only when
// LOOKOUT_E2E_BENCH is set:
//
//	LOOKOUT_E2E_BENCH=1 go test ./e2e -run TestAgentStackBench -v -timeout 90m
//
// For each of Codex, Claude Code and OpenCode, in a burst and at 2,000
// deltas/s, the agent's fake model streams the benchmark answer
// (shared/bench/longmd.md, 20,056 deltas of 10 characters) and each run
// measures:
//
//   - `lookout --agent NAME` (one process: the embedded host and the
//     client) in a 120x40 tmux pane: the CPU (utime+stime of all its
//     threads, from /proc) of the lookout process, and separately of the
//     agent's processes it runs, from Enter on the prompt until the end
//     marker is on screen, the turn is idle and the screen has not
//     changed for a second. The host keeps the answer whole (an agent
//     message's bound is 1 MiB), so the whole text is rendered.
//   - the agent's own TUI (`codex`, interactive `claude`, `opencode`) in
//     the same pane against the same fake: the CPU of all its processes
//     (Codex's TUI starts an app-server daemon, reported beside it), from
//     Enter until the end marker is on screen and the screen settled.
//
// Before each prompt the run waits for its processes to go quiet, so that
// start-up work is not counted. The processes of a run are those whose
// environment holds the run's tag, and their descendants, sampled every
// 100 ms (procgroup_test.go).
//
// LOOKOUT_BENCH_RUNS (default 3) sets the runs per mode, and the table
// gives medians (with the range of several runs); LOOKOUT_BENCH_AGENTS
// (default "codex,claude,opencode") picks agents and LOOKOUT_BENCH_MODES
// (default "burst,2000") modes; LOOKOUT_BENCH_OWN_TUI=0
// leaves the agents' own TUIs out; LOOKOUT_BENCH_PROFILE=DIR has each
// lookout write a CPU profile there (lookout-AGENT-MODE-RUN.pprof, the
// whole process); LOOKOUT_BENCH_OUT writes the table to a file; LOOKOUT_BENCH_FILE names the answer; the agents' binaries are
// found as the other e2e tests find them (LOOKOUT_CODEX_BIN,
// LOOKOUT_CLAUDE_BIN, LOOKOUT_OPENCODE_BIN, or .agents/ in the module).
func TestAgentStackBench(t *testing.T) {
	if os.Getenv("LOOKOUT_E2E_BENCH") == "" {
		t.Skip("set LOOKOUT_E2E_BENCH=1 to run the whole-stack benchmark")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	data, err := os.ReadFile(benchtext.File(t))
	if err != nil {
		t.Fatal(err)
	}
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("LOOKOUT_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	agents := []string{"codex", "claude", "opencode"}
	if s := os.Getenv("LOOKOUT_BENCH_AGENTS"); s != "" {
		agents = strings.Split(s, ",")
	}
	modes := []string{"burst", "2000"}
	if s := os.Getenv("LOOKOUT_BENCH_MODES"); s != "" {
		modes = strings.Split(s, ",")
	}
	ownTUIs := os.Getenv("LOOKOUT_BENCH_OWN_TUI") != "0"
	var lo lookoutOptions
	profiles := os.Getenv("LOOKOUT_BENCH_PROFILE")

	var report strings.Builder
	fmt.Fprintf(&report, "load average at start: %s; %d run(s) per mode\n\n", loadAvg(), runs)
	report.WriteString("| agent | mode | lookout process | agent's processes | Lookout side | wall to end on screen | agent's own TUI | its other processes | own TUI in all | wall to end on screen | own TUI / Lookout side |\n")
	report.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, ag := range stackAgents {
		if !slices.Contains(agents, ag.name) {
			continue
		}
		for _, mode := range []struct {
			key, name string
			rate      float64
		}{{"burst", "burst", 0}, {"2000", "2,000 deltas/s", 2000}} {
			if !slices.Contains(modes, mode.key) {
				continue
			}
			long := agenttest.LongAnswer{Text: string(data), Chunk: 10, Rate: mode.rate}
			var ours, theirs []stackResult
			t.Run(ag.name+"/"+strings.ReplaceAll(mode.name, " ", "_"), func(t *testing.T) {
				for i := range runs {
					o := lo
					if profiles != "" {
						o.profile = filepath.Join(profiles, fmt.Sprintf("lookout-%s-%s-%d.pprof", ag.name, mode.key, i+1))
					}
					r := lookoutRun(t, ag, long, o)
					t.Logf("lookout run %d: lookout %.2fs, agent %.2fs, wall %.2fs (%s)", i+1, r.main.Seconds(), r.rest.Seconds(), r.wall.Seconds(), r.procs)
					ours = append(ours, r)
					if ownTUIs {
						r := ownTUIRun(t, ag, long)
						t.Logf("own TUI run %d: TUI %.2fs, its other processes %.2fs, wall %.2fs (%s)", i+1, r.main.Seconds(), r.rest.Seconds(), r.wall.Seconds(), r.procs)
						theirs = append(theirs, r)
					}
				}
			})
			if len(ours) == 0 {
				continue
			}
			row := []string{ag.name, mode.name, medianSeconds(ours, stackMain), medianSeconds(ours, stackRest), medianSeconds(ours, stackAll), medianSeconds(ours, stackWall)}
			if len(theirs) > 0 {
				ratio := median(theirs, stackAll).Seconds() / median(ours, stackAll).Seconds()
				row = append(row, medianSeconds(theirs, stackMain), medianSeconds(theirs, stackRest), medianSeconds(theirs, stackAll), medianSeconds(theirs, stackWall), fmt.Sprintf("%.2fx", ratio))
			} else {
				row = append(row, "–", "–", "–", "–", "–")
			}
			fmt.Fprintf(&report, "| %s |\n", strings.Join(row, " | "))
		}
	}
	fmt.Fprintf(&report, "\nload average at end: %s\n", loadAvg())
	t.Log("\n" + report.String())
	if out := os.Getenv("LOOKOUT_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func stackMain(r stackResult) time.Duration { return r.main }
func stackRest(r stackResult) time.Duration { return r.rest }
func stackAll(r stackResult) time.Duration  { return r.main + r.rest }
func stackWall(r stackResult) time.Duration { return r.wall }

// median is the median of f over rs.
func median(rs []stackResult, f func(stackResult) time.Duration) time.Duration {
	vs := make([]time.Duration, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

// medianSeconds formats the median of f over rs in seconds, with the
// range of several runs.
func medianSeconds(rs []stackResult, f func(stackResult) time.Duration) string {
	s := fmt.Sprintf("%.2f s", median(rs, f).Seconds())
	if len(rs) > 1 {
		lo, hi := f(rs[0]), f(rs[0])
		for _, r := range rs[1:] {
			lo, hi = min(lo, f(r)), max(hi, f(r))
		}
		s += fmt.Sprintf(" (%.2f–%.2f)", lo.Seconds(), hi.Seconds())
	}
	return s
}
