package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// One run of TestAgentStackBench: a program in a 120x40 pane of a tmux
// server of its own, a prompt, and the CPU of the run's processes until
// the answer's end is on screen and the screen has settled.

// stackPane is a run's terminal and processes.
type stackPane struct {
	tm    *term
	ctl   *tmuxControl
	pid   int        // the pane's process: lookout, or the agent's TUI
	procs *procGroup // it and everything it started
}

// stackRuns numbers the runs, so each has a tmux server and a tag of its
// own.
var stackRuns int

// startStackPane runs `env [-i] TAG vars... argv` in dir (exec'd, so that
// the pane's process is the program; -i when clean: no variable but vars,
// the tag and TERM) and waits until ready holds for the screen. vars and
// argv are shell words.
func startStackPane(t *testing.T, dir string, clean bool, vars []string, argv string, ready func(string) bool) *stackPane {
	stackRuns++
	tag := newProcTag(stackRuns)
	p := &stackPane{tm: &term{t: t, socket: fmt.Sprintf("lookout-stack-%d-%d", os.Getpid(), stackRuns)}}
	p.procs = watchProcs(t, tag)
	command := "exec env "
	if clean {
		command += `-i TERM="$TERM" `
	}
	command += tag + " " + strings.Join(vars, " ") + " " + argv
	p.tm.tmux("new-session", "-d", "-s", "e2e", "-x", "120", "-y", "40", "-c", dir, command)
	t.Cleanup(p.stop)
	var err error
	if p.pid, err = strconv.Atoi(strings.TrimSpace(p.tm.tmux("display", "-p", "-t", "e2e", "#{pane_pid}"))); err != nil {
		t.Fatal(err)
	}
	p.tm.waitFor("the composer", ready)
	p.ctl = startControl(t, p.tm)
	return p
}

// stop ends the pane and every process of the run.
func (p *stackPane) stop() {
	_ = exec.Command("tmux", "-L", p.tm.socket, "kill-server").Run()
	p.procs.kill()
}

// stackResult is one run's measurement.
type stackResult struct {
	// main is the pane process's CPU, rest the other processes' of the
	// run (the agent behind lookout; a TUI's daemon or helpers).
	main, rest time.Duration
	// wall is from Enter to the end of the answer on screen.
	wall time.Duration
	// procs lists every process's CPU, for the log.
	procs string
}

// quietCPU is the most CPU a run's processes may use in a second before
// the prompt: the startup work is done (an idle lookout uses 16-26 ms a
// second, docs/performance.md).
const quietCPU = 60 * time.Millisecond

// measure waits for the run's processes to go quiet, types prompt and
// Enter, and measures until end (the answer's last line) is on screen,
// done holds (nil: no more) and the screen has not changed for a second.
func (p *stackPane) measure(prompt, end string, done func(string) bool) stackResult {
	t := p.tm.t
	if idle, ok := p.waitQuiet(30 * time.Second); !ok {
		t.Logf("the run's processes never went quiet before the prompt; their last second: %s", idle)
	}
	p.tm.typeText(prompt)
	time.Sleep(300 * time.Millisecond) // the composer shows it
	p.procs.mark()
	t0 := time.Now()
	p.tm.keys("Enter")
	var wall time.Duration
	for deadline := t0.Add(5 * waitLimit); ; time.Sleep(50 * time.Millisecond) {
		if strings.Contains(p.ctl.screen(), end) {
			wall = time.Since(t0)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never showed:\n%s", end, p.tm.screen())
		}
	}
	p.waitSettled(end, done)
	used := p.procs.used()
	return stackResult{main: used.of(p.pid), rest: used.except(p.pid), wall: wall, procs: used.String()}
}

// waitQuiet waits for a second in which the run's processes use at most
// quietCPU, and reports false if none comes within limit (some TUIs
// never idle), with the CPU of the last second.
func (p *stackPane) waitQuiet(limit time.Duration) (procCPUs, bool) {
	for deadline := time.Now().Add(limit); ; {
		p.procs.mark()
		time.Sleep(time.Second)
		used := p.procs.used()
		var all time.Duration
		for _, u := range used {
			all += u.cpu
		}
		if all <= quietCPU {
			return used, true
		}
		if time.Now().After(deadline) {
			return used, false
		}
	}
}

// waitSettled waits until the screen holds end, satisfies done and stays
// the same for a second.
func (p *stackPane) waitSettled(end string, done func(string) bool) {
	last, since := "", time.Now()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(100 * time.Millisecond) {
		s := p.ctl.screen()
		if s != last {
			last, since = s, time.Now()
		}
		if strings.Contains(s, end) && (done == nil || done(s)) && time.Since(since) >= time.Second {
			return
		}
		if time.Now().After(deadline) {
			p.tm.t.Fatalf("the screen never settled after the answer:\n%s", s)
		}
	}
}

// lookoutOptions shape the lookout runs.
type lookoutOptions struct {
	// profile, when set, is the file lookout writes its CPU profile to
	// (LOOKOUT_CPUPROFILE); the run then quits lookout with ctrl+c so
	// that it does.
	profile string
}

// lookoutRun streams the answer once through `lookout --agent NAME`.
func lookoutRun(t *testing.T, ag stackAgent, long agenttest.LongAnswer, o lookoutOptions) stackResult {
	dir, bin, env := setup(t)
	work := agenttest.Workdir(t)
	l := ag.behindLookout(t, long)
	var vars []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "XDG_") {
			vars = append(vars, kv)
		}
	}
	vars = append(vars, agentEnvVars(l.env)...)
	if n := os.Getenv("LOOKOUT_BENCH_GOMAXPROCS"); n != "" {
		vars = append(vars, "GOMAXPROCS="+n) // lookout's own, to compare
	}
	if o.profile != "" {
		vars = append(vars, "LOOKOUT_CPUPROFILE="+shellQuote(o.profile))
	}
	argv := fmt.Sprintf("%s %s --cwd %s --data %s --theme dark --log %s", bin, l.flags,
		shellQuote(work), shellQuote(filepath.Join(dir, "host")), shellQuote(filepath.Join(dir, "client.log")))
	p := startStackPane(t, dir, false, vars, argv, func(s string) bool {
		return emptyComposer(s) && screenIdle(s) && !strings.Contains(s, "Connecting")
	})
	defer p.stop()
	r := p.measure(stackPrompt, benchMarker, screenIdle)
	if o.profile != "" {
		p.quit()
	}
	return r
}

// quit presses ctrl+c twice, lookout's quit, and waits for the pane's
// process to end.
func (p *stackPane) quit() {
	p.tm.keys("C-c", "C-c")
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.pid)); err != nil {
			return
		}
	}
	p.tm.t.Logf("lookout did not quit: its profile may be missing")
}

// ownTUIRun streams the answer once into the agent's own TUI.
func ownTUIRun(t *testing.T, ag stackAgent, long agenttest.LongAnswer) stackResult {
	work := agenttest.Workdir(t)
	tui := ag.ownTUI(t, long, work)
	var vars []string
	for _, kv := range tui.env {
		vars = append(vars, shellQuote(kv))
	}
	// Clean: only the agent's own environment, and the pane's TERM.
	p := startStackPane(t, work, true, vars, shellQuote(tui.bin), tui.ready)
	defer p.stop()
	return p.measure(stackPrompt, benchMarker, nil)
}
