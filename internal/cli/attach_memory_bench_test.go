//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	gosync "sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/lookout-sh/lookout/internal/servetest"
)

// BenchmarkAttachMemory measures the attach process's memory while it
// renders the 200 KB benchmark answer (docs/performance.md, the peak RSS
// row): it builds the lookout binary, starts `lookout serve --bench-stream`
// and runs `lookout attach` on a 120x40 pseudo-terminal, types a prompt and
// samples /proc/PID/status every 5 ms until the answer has streamed and the
// process has settled. Reported per run: peak RSS (VmHWM), and at the
// sampled peak the anonymous (heap, stacks, runtime) and file-backed (the
// binary's pages) parts; RSS, and CPU a second, at idle before the prompt
// (the cost of an attach that only waits); CPU from the prompt to the
// settled screen. It needs ../shared/bench/longmd.md beside the
// repository (or LOOKOUT_BENCH_FILE):
//
//	go test ./internal/cli -run '^$' -bench AttachMemory -benchtime 3x
func BenchmarkAttachMemory(b *testing.B) {
	file := benchtext.File(b)
	bin := buildLookout(b)
	for _, mode := range []struct{ name, rate string }{{"burst", "0"}, {"paced", "2000"}} {
		b.Run(mode.name, func(b *testing.B) {
			var sum attachMemory
			for range b.N {
				m := measureAttach(b, bin, file, mode.rate)
				b.Logf("%s: peak %.1f MB (anon %.1f, file %.1f), idle %.1f MB (anon %.1f, file %.1f), cpu %.2f s, idle cpu %d ms/s",
					mode.name, mb(m.hwm), mb(m.peak.anon), mb(m.peak.file), mb(m.idle.rss), mb(m.idle.anon), mb(m.idle.file), m.cpu.Seconds(), m.idleCPU.Milliseconds())
				sum.add(m)
			}
			n := float64(b.N)
			b.ReportMetric(mb(sum.hwm)/n, "peak-rss-MB")
			b.ReportMetric(mb(sum.peak.anon)/n, "peak-anon-MB")
			b.ReportMetric(mb(sum.peak.file)/n, "peak-file-MB")
			b.ReportMetric(mb(sum.idle.rss)/n, "idle-rss-MB")
			b.ReportMetric(sum.cpu.Seconds()/n, "cpu-s")
			b.ReportMetric(float64(sum.idleCPU.Milliseconds())/n, "idle-cpu-ms/s")
		})
	}
}

// attachMemory is one run's measurement (sizes in KiB, as /proc has them).
type attachMemory struct {
	hwm        int64
	idle, peak procMemory
	cpu        time.Duration
	idleCPU    time.Duration // a second's CPU with the session on screen and nothing streaming
}

func (a *attachMemory) add(m attachMemory) {
	a.hwm += m.hwm
	a.idle.add(m.idle)
	a.peak.add(m.peak)
	a.cpu += m.cpu
	a.idleCPU += m.idleCPU
}

func mb(kib int64) float64 { return float64(kib) / 1024 }

// procMemory is a process's resident memory split as /proc/PID/status has it.
type procMemory struct{ rss, anon, file int64 }

func (p *procMemory) add(q procMemory) { p.rss += q.rss; p.anon += q.anon; p.file += q.file }

func readProcMemory(pid int) (procMemory, int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procMemory{}, 0, err
	}
	var m procMemory
	var hwm int64
	for _, line := range strings.Split(string(data), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kib, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			m.rss = kib
		case "RssAnon":
			m.anon = kib
		case "RssFile":
			m.file = kib
		case "VmHWM":
			hwm = kib
		}
	}
	return m, hwm, nil
}

// settledCPU is the most CPU an attach that has nothing left to do uses
// in a second. It is not zero: an idle attach uses 16-26 ms a second on
// the development machine, most of it waking for Bubble Tea's 60 Hz
// renderer clock, so waiting for a second with no CPU at all could take
// minutes, and count them.
const settledCPU = 40 * time.Millisecond

// waitSettled waits for a second in which pid uses at most settledCPU,
// and reports false if none comes within limit.
func waitSettled(pid int, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); {
		if cpuPerSecond(pid, time.Second) <= settledCPU {
			return true
		}
	}
	return false
}

// idleWindow is how long an idle attach's CPU is counted: /proc counts
// in 10 ms ticks, so a window of a few seconds gives a rate to a few
// milliseconds a second.
const idleWindow = 4 * time.Second

// cpuPerSecond is the CPU pid uses in a second, averaged over window.
func cpuPerSecond(pid int, window time.Duration) time.Duration {
	start := procCPUTime(pid)
	time.Sleep(window)
	return (procCPUTime(pid) - start) * time.Second / window
}

// procCPUTime is utime+stime of pid.
func procCPUTime(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// buildLookout builds the lookout binary as users build it.
func buildLookout(b *testing.B) string { return servetest.Binary(b) }

// measureAttach runs one stream at rate (deltas per second, 0: burst).
func measureAttach(b *testing.B, bin, file, rate string) attachMemory {
	host := startBenchHost(b, bin, file, rate)
	defer host.stop()
	att := startAttach(b, bin, host.addr, host.session)
	defer att.stop()
	// The status line names the ephemeral host once the session is open.
	att.waitFor(b, "the open session", "ephemeral host")
	time.Sleep(300 * time.Millisecond) // let the first frames settle
	idle, _, err := readProcMemory(att.pid)
	if err != nil {
		b.Fatal(err)
	}
	idleCPU := cpuPerSecond(att.pid, idleWindow)
	peak := idle
	sampled := make(chan procMemory)
	stopSampling := make(chan struct{})
	go func() {
		p := peak
		for {
			select {
			case <-stopSampling:
				sampled <- p
				return
			case <-time.After(5 * time.Millisecond):
			}
			if m, _, err := readProcMemory(att.pid); err == nil && m.rss > p.rss {
				p = m
			}
		}
	}()
	cpu0 := procCPUTime(att.pid)
	att.write(b, "go")
	att.write(b, "\r")
	select {
	case <-host.lastDelta:
	case <-time.After(2 * time.Minute):
		b.Fatal("the stream never ended")
	}
	// Settled: the rest of the answer and the completed message rendered.
	if !waitSettled(att.pid, 2*time.Minute) {
		b.Fatal("the attach never settled after the stream")
	}
	cpu := procCPUTime(att.pid) - cpu0
	close(stopSampling)
	peak = <-sampled
	_, hwm, err := readProcMemory(att.pid)
	if err != nil {
		b.Fatal(err)
	}
	return attachMemory{hwm: hwm, idle: idle, peak: peak, cpu: cpu, idleCPU: idleCPU}
}

// benchHost is a `lookout serve --bench-stream` process.
type benchHost struct {
	cmd       *exec.Cmd
	addr      string
	session   string
	lastDelta chan struct{}
}

func startBenchHost(b *testing.B, bin, file, rate string) *benchHost {
	h := &benchHost{lastDelta: make(chan struct{}, 1)}
	sid := make(chan string, 1)
	p := servetest.Start(b, bin, servetest.Options{Line: func(line string) {
		if s, ok := strings.CutPrefix(line, "bench session: "); ok {
			sid <- s
		}
		if strings.HasPrefix(line, "bench: last delta at ") {
			h.lastDelta <- struct{}{}
		}
	}}, "--addr", "127.0.0.1:0", "--no-auth", "--ephemeral", "--bench-stream", file, "--bench-rate", rate)
	h.cmd, h.addr = p.Cmd, p.Addr()
	select {
	case h.session = <-sid:
	case <-time.After(30 * time.Second):
		h.stop()
		b.Fatal("the bench host did not report its session")
	}
	return h
}

func (h *benchHost) stop() {
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
}

// attachProc is a process (`lookout attach`) on a pseudo-terminal of its own.
type attachProc struct {
	cmd  *exec.Cmd
	pid  int
	pty  *os.File
	mu   gosync.Mutex
	seen []byte // everything the process wrote to its terminal
}

func startAttach(b *testing.B, bin, addr, session string) *attachProc {
	return startOnPTY(b, bin, "attach", "ws://"+addr, "--session", session, "--theme", "dark")
}

// startOnPTY runs bin with args on a 120x40 pseudo-terminal of its own.
func startOnPTY(b *testing.B, bin string, args ...string) *attachProc {
	ptm, pts, err := openPTY(120, 40)
	if err != nil {
		b.Skipf("no pseudo-terminal: %v", err)
	}
	defer pts.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, pts, pts
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		ptm.Close()
		b.Fatal(err)
	}
	a := &attachProc{cmd: cmd, pid: cmd.Process.Pid, pty: ptm}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := ptm.Read(buf)
			a.mu.Lock()
			a.seen = append(a.seen, buf[:n]...)
			a.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return a
}

// waitFor waits until the terminal output holds text.
func (a *attachProc) waitFor(b *testing.B, what, text string) {
	from := 0 // output before from was searched already
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		a.mu.Lock()
		ok := bytes.Contains(a.seen[from:], []byte(text))
		from = max(0, len(a.seen)-len(text))
		a.mu.Unlock()
		if ok {
			return
		}
	}
	a.mu.Lock()
	tail := a.seen[max(0, len(a.seen)-3000):]
	a.mu.Unlock()
	b.Fatalf("%s never showed; the terminal's last output: %q", what, tail)
}

func (a *attachProc) write(b *testing.B, s string) {
	if _, err := a.pty.WriteString(s); err != nil {
		b.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
}

func (a *attachProc) stop() {
	_ = a.cmd.Process.Kill()
	_ = a.cmd.Wait()
	a.pty.Close()
}

// openPTY opens a pseudo-terminal pair of cols x rows.
func openPTY(cols, rows uint16) (ptm, pts *os.File, err error) {
	ptm, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) error {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptm.Fd(), req, uintptr(arg)); errno != 0 {
			return errno
		}
		return nil
	}
	var unlock int32
	var n uint32
	ws := struct{ rows, cols, x, y uint16 }{rows, cols, 0, 0}
	if err = ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err == nil {
		err = ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	}
	if err == nil {
		err = ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws))
	}
	if err == nil {
		pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	return ptm, pts, nil
}
