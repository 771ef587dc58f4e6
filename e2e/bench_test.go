package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"
)

// The end-to-end rendering benchmark (docs/performance.md). It runs only
// when LOOKOUT_E2E_BENCH is set:
//
//	LOOKOUT_E2E_BENCH=1 go test ./e2e -run TestStreamBench -v -timeout 30m
//
// Each run starts `lookout serve --bench-stream longmd.md` (the 200,555-byte
// answer in 10-byte deltas: 20,056 of them) and `lookout attach` in a
// 120x40 tmux pane, types a prompt, and measures the attach process:
// CPU (utime+stime from /proc/PID/stat) from the prompt until the turn is
// idle again and the screen settled, wall time from the prompt to the end
// marker on screen, lag from the host's last delta to the end marker on
// screen, peak RSS (VmHWM) and bytes written (wchar: the terminal output,
// plus a few requests on the socket). Then, while the answer streams at
// 2,000 deltas/s, it types keys one at a time and measures each echo in
// the composer. The screen is read through a tmux control-mode client
// every 5 ms (a tmux process per read would take the CPU the measured
// process needs), so times are good to about 5 ms.
//
// LOOKOUT_BENCH_RUNS (default 3) sets the runs per mode; LOOKOUT_BENCH_FILE
// names the answer (default ../shared/bench/longmd.md beside the
// repository).

const benchMarker = "LONGMD-END-OF-ANSWER-7f3a"

type benchResult struct {
	cpu, wall, lag time.Duration
	rssKB, wrote   int64
}

func TestStreamBench(t *testing.T) {
	if os.Getenv("LOOKOUT_E2E_BENCH") == "" {
		t.Skip("set LOOKOUT_E2E_BENCH=1 to run the end-to-end rendering benchmark")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	file := benchtext.File(t)
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("LOOKOUT_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	var report strings.Builder
	fmt.Fprintf(&report, "load average at start: %s\n", loadAvg())
	fmt.Fprintf(&report, "| mode | TUI CPU | wall to end on screen | lag after last delta | peak RSS | bytes written |\n|---|---|---|---|---|---|\n")
	for _, mode := range []struct {
		name string
		rate float64
	}{{"burst", 0}, {"2,000 deltas/s", 2000}} {
		var rs []benchResult
		for i := 0; i < runs; i++ {
			r := benchRun(t, file, mode.rate)
			t.Logf("%s run %d: cpu %v wall %v lag %v rss %d KB wrote %d B", mode.name, i+1, r.cpu, r.wall, r.lag, r.rssKB, r.wrote)
			rs = append(rs, r)
		}
		fmt.Fprintf(&report, "| %s | %s | %s | %s | %s | %s |\n", mode.name,
			medianOf(rs, func(r benchResult) float64 { return r.cpu.Seconds() }, "%.2f s"),
			medianOf(rs, func(r benchResult) float64 { return r.wall.Seconds() }, "%.2f s"),
			medianOf(rs, func(r benchResult) float64 { return r.lag.Seconds() }, "%.3f s"),
			medianOf(rs, func(r benchResult) float64 { return float64(r.rssKB) / 1024 }, "%.1f MB"),
			medianOf(rs, func(r benchResult) float64 { return float64(r.wrote) / 1e6 }, "%.2f MB"))
	}
	for _, e := range []struct {
		name   string
		args   []string
		prompt string
		typing typing
	}{
		{"the bench answer at 2,000 deltas/s", []string{"--bench-stream", file, "--bench-rate", "2000"}, "go", typingAlong},
		{"the demo's `long` answer with --pace 1ms", []string{"--pace", "1ms"}, "long", typingAlong},
		// Each key after the UI has gone back to only watching (the frames
		// at the fast pace, the client on one thread): 2.5 s into the
		// stream and 2.5 s after the key before.
		{"the bench answer at 1,000 deltas/s, each key after 2.5 s of watching", []string{"--bench-stream", file, "--bench-rate", "1000"}, "go", typingAfterWatching},
	} {
		var lat []time.Duration
		for i := 0; i < runs; i++ {
			lat = append(lat, benchEcho(t, e.args, e.prompt, e.typing)...)
		}
		slices.Sort(lat)
		fmt.Fprintf(&report, "keystroke echo while streaming %s (%d keys): median %v, 90th percentile %v, max %v\n", e.name, len(lat),
			lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*9/10].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	}
	fmt.Fprintf(&report, "load average at end: %s\n", loadAvg())
	t.Log("\n" + report.String())
	if out := os.Getenv("LOOKOUT_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// medianOf formats the median of f over rs, with the min and max of
// several runs.
func medianOf(rs []benchResult, f func(benchResult) float64, format string) string {
	vs := make([]float64, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	slices.Sort(vs)
	s := fmt.Sprintf(format, vs[len(vs)/2])
	if len(vs) > 1 {
		s += " (" + fmt.Sprintf(format, vs[0]) + "–" + fmt.Sprintf(format, vs[len(vs)-1]) + ")"
	}
	return s
}

// benchHost is a `lookout serve` process and the tmux pane attached to
// its bench or demo session.
type benchHost struct {
	tm   *term
	ctl  *tmuxControl   // fast screen reads
	pid  int            // the attach process
	last chan time.Time // the host's "last delta" times
}

// tmuxControl is a tmux control-mode client: it reads the screen without
// starting a tmux process per read, so polling every few milliseconds
// does not take the CPU the measured process needs.
//
// Everything tmux writes to it is read at once, by its own goroutine.
// When it was read only while polling, tmux (3.3a) stopped reading the
// pane in about one paced run in five, from a second into the stream
// until the first poll after its last delta: the attach process sat
// blocked writing to its terminal for nine seconds, and the run showed a
// quarter of the bytes and half the CPU (docs/performance.md, "Round 6").
type tmuxControl struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	replies chan []string // the output of each command this client sent, in order
}

func startControl(t *testing.T, tm *term) *tmuxControl {
	// no-output from the attach on: no %output notifications at all.
	cmd := exec.Command("tmux", "-L", tm.socket, "-C", "attach", "-f", "no-output", "-t", "e2e")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &tmuxControl{cmd: cmd, in: in, replies: make(chan []string, 4)}
	go c.read(bufio.NewReaderSize(out, 1<<16))
	t.Cleanup(func() { in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return c
}

// read reads everything tmux writes and hands on the output blocks of
// commands this client sent (%begin's flags 1); notifications, and the
// block of the attach itself, are dropped.
func (c *tmuxControl) read(r *bufio.Reader) {
	defer close(c.replies)
	var block []string
	inBlock, ours := false, false
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return
		}
		l = strings.TrimRight(l, "\r\n")
		switch {
		case !inBlock && strings.HasPrefix(l, "%begin"):
			f := strings.Fields(l)
			inBlock, ours, block = true, len(f) == 4 && f[3] == "1", nil
		case inBlock && (strings.HasPrefix(l, "%end") || strings.HasPrefix(l, "%error")):
			inBlock = false
			if ours {
				c.replies <- block
			}
		case inBlock:
			block = append(block, l)
		}
	}
}

// run sends one command and returns its output lines.
func (c *tmuxControl) run(command string) []string {
	fmt.Fprintln(c.in, command)
	return <-c.replies
}

// screen is the pane's text.
func (c *tmuxControl) screen() string {
	return strings.Join(c.run("capture-pane -p -t e2e"), "\n")
}

// startBench starts `lookout serve --no-auth` with args and `lookout
// attach` in a 120x40 pane on its session, and waits for the composer.
func startBench(t *testing.T, args ...string) *benchHost {
	_, bin, env := setup(t)
	addr := freeAddr(t)
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--no-auth", "--ephemeral"}, args...)...)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })
	sid := make(chan string, 1)
	b := &benchHost{last: make(chan time.Time, 1)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			for _, p := range []string{"bench session: ", "demo session: "} {
				if s, ok := strings.CutPrefix(line, p); ok {
					sid <- s
				}
			}
			if s, ok := strings.CutPrefix(line, "bench: last delta at "); ok {
				ns, _ := strconv.ParseInt(s, 10, 64)
				b.last <- time.Unix(0, ns)
			}
		}
	}()
	var session string
	select {
	case session = <-sid:
	case <-time.After(waitLimit):
		t.Fatal("the bench host did not start")
	}
	benchRuns++
	b.tm = &term{t: t, socket: fmt.Sprintf("lookout-bench-%d-%d", os.Getpid(), benchRuns)}
	var envs []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "XDG_") {
			envs = append(envs, kv)
		}
	}
	// exec: the pane's process is lookout itself, whose /proc we read.
	b.tm.tmux("new-session", "-d", "-s", "e2e", "-x", "120", "-y", "40", "-c", t.TempDir(),
		fmt.Sprintf("exec env %s %s attach ws://%s --session %s --theme dark", strings.Join(envs, " "), bin, addr, session))
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", b.tm.socket, "kill-server").Run() })
	b.tm.waitFor("the session", func(s string) bool {
		return strings.Contains(s, "Write a prompt") && strings.Contains(s, "idle")
	})
	b.pid, err = strconv.Atoi(strings.TrimSpace(b.tm.tmux("display", "-p", "-t", "e2e", "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	b.ctl = startControl(t, b.tm)
	time.Sleep(300 * time.Millisecond)
	return b
}

// benchRuns numbers the runs, so each has a tmux server of its own.
var benchRuns int

// stop ends the pane and the host before the next run.
func (b *benchHost) stop() { _ = exec.Command("tmux", "-L", b.tm.socket, "kill-server").Run() }

// benchRun streams the answer once at rate (0: burst) and measures it.
func benchRun(t *testing.T, file string, rate float64) benchResult {
	b := startBench(t, "--bench-stream", file, "--bench-rate", strconv.FormatFloat(rate, 'f', -1, 64))
	defer b.stop()
	tm := b.tm
	cpu0, wrote0 := procCPU(t, b.pid), procWchar(b.pid)
	tm.typeText("go")
	t0 := time.Now()
	tm.keys("Enter")
	var tLast time.Time
	select {
	case tLast = <-b.last:
	case <-time.After(10 * waitLimit):
		t.Fatal("the stream never ended")
	}
	// The end marker: poll often now.
	var tEnd time.Time
	for deadline := time.Now().Add(waitLimit); ; {
		if strings.Contains(b.ctl.screen(), benchMarker) {
			tEnd = time.Now()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the end marker never showed:\n%s", tm.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The turn ends (the completed message renders), then the screen settles.
	tm.waitFor("the turn to end", func(s string) bool {
		return strings.Contains(s, benchMarker) && strings.Contains(s, "· idle")
	})
	time.Sleep(time.Second)
	return benchResult{cpu: procCPU(t, b.pid) - cpu0, wall: tEnd.Sub(t0), lag: tEnd.Sub(tLast),
		rssKB: procHWM(b.pid), wrote: procWchar(b.pid) - wrote0}
}

// typing is how benchEcho types: how long into the stream the first key
// comes, how long after each echo the next, and how many keys.
type typing struct {
	lead, gap time.Duration
	keys      int
}

var (
	// typingAlong types ten keys 200 ms apart from half a second in.
	typingAlong = typing{lead: 500 * time.Millisecond, gap: 200 * time.Millisecond, keys: 10}
	// typingAfterWatching leaves each key 2.5 s of watching before it.
	typingAfterWatching = typing{lead: 2500 * time.Millisecond, gap: 2500 * time.Millisecond, keys: 6}
)

// benchEcho sends prompt to a host started with args and, while the answer
// streams, types keys one at a time as how says: each latency is from the
// key sent to the key shown in the composer.
func benchEcho(t *testing.T, args []string, prompt string, how typing) []time.Duration {
	b := startBench(t, args...)
	defer b.stop()
	tm := b.tm
	tm.typeText(prompt)
	tm.keys("Enter")
	time.Sleep(how.lead) // into the stream
	typed := ""
	var lat []time.Duration
	for i := 0; i < how.keys; i++ {
		c := string(rune('a' + i))
		k0 := time.Now()
		b.ctl.run("send-keys -t e2e -l " + c)
		typed += c
		for {
			if composerLine(b.ctl.screen(), typed) {
				lat = append(lat, time.Since(k0))
				break
			}
			if time.Since(k0) > 20*time.Second {
				t.Fatalf("key %q never echoed:\n%s", c, tm.screen())
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(how.gap)
	}
	return lat
}

// composerLine reports whether the composer's line shows typed.
func composerLine(screen, typed string) bool {
	for l := range strings.SplitSeq(screen, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "› "+typed) {
			return true
		}
	}
	return false
}

// procCPU is the process's utime+stime.
func procCPU(t *testing.T, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	// fields after the name: state is f[0]; utime and stime are stat's
	// 14th and 15th fields, f[11] and f[12].
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clockTicks
}

// clockTicks is USER_HZ, 100 on Linux.
const clockTicks = 100

func procField(pid int, file, name string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

func procHWM(pid int) int64   { return procField(pid, "status", "VmHWM:") }
func procWchar(pid int) int64 { return procField(pid, "io", "wchar:") }

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
