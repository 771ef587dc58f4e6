//go:build linux

package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"
	"github.com/lookout-sh/lookout/internal/servetest"
	"github.com/lookout-sh/lookout/model"
	lsync "github.com/lookout-sh/lookout/sync"
)

// BenchmarkHostFanoutLongmd measures what a host spends on clients
// attached to one streaming session (the target 5: 20 clients at
// 2,000 deltas/s under one core). It runs `lookout serve --bench-stream`
// as a child process (its agent streams shared/bench/longmd.md in 10-byte
// deltas at LOOKOUT_BENCH_RATE deltas/s, default 2,000), attaches 1 or 20
// sync clients over real WebSockets on loopback (the client `lookout
// attach` runs: coalesced deltas, each folding into its own model.State),
// has the first send a prompt, and reads the host process's CPU from
// /proc, from the prompt until every client holds the whole answer and
// the ended turn. It does so with the journal in memory (ephemeral, as
// the rendering benchmarks run the host) and durable (SQLite in a data
// directory, as `lookout` and `lookout serve` run it: a durable host
// journals the streamed deltas too). Reported per answer: the host's CPU
// seconds (host-cpu-s), the cores it used on average over that time
// (host-cores), the wall time (wall-s) and the clients' CPU in this
// process (clients-cpu-s). It needs ../shared/bench/longmd.md beside the
// repository (or LOOKOUT_BENCH_FILE):
//
//	go test -run '^$' -bench HostFanoutLongmd -benchtime 1x .
func BenchmarkHostFanoutLongmd(b *testing.B) {
	file := benchtext.File(b)
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	rate := "2000"
	if r := os.Getenv("LOOKOUT_BENCH_RATE"); r != "" {
		rate = r
	}
	bin := buildLookout(b)
	for _, journal := range []string{"ephemeral", "durable"} {
		for _, clients := range []int{1, 20} {
			b.Run(journal+"/clients="+strconv.Itoa(clients), func(b *testing.B) {
				var host, wall, own time.Duration
				for range b.N {
					r := fanoutRun(b, bin, file, rate, journal == "durable", clients, len(data))
					b.Logf("%s, %d clients: host %.2f s CPU over %.2f s (%.2f cores), clients %.2f s", journal, clients,
						r.host.Seconds(), r.wall.Seconds(), r.host.Seconds()/r.wall.Seconds(), r.clients.Seconds())
					host, wall, own = host+r.host, wall+r.wall, own+r.clients
				}
				n := float64(b.N)
				b.ReportMetric(host.Seconds()/n, "host-cpu-s")
				b.ReportMetric(host.Seconds()/wall.Seconds(), "host-cores")
				b.ReportMetric(wall.Seconds()/n, "wall-s")
				b.ReportMetric(own.Seconds()/n, "clients-cpu-s")
			})
		}
	}
}

// fanoutResult is one answer's measurement.
type fanoutResult struct{ host, wall, clients time.Duration }

// fanoutRun starts a bench host (journaling the stream in a data
// directory when durable, as `lookout` and `lookout serve` do; in memory
// otherwise), attaches n clients, streams one answer of size bytes and
// measures it.
func fanoutRun(b *testing.B, bin, file, rate string, durable bool, n, size int) fanoutResult {
	args := []string{"--addr", "127.0.0.1:0", "--no-auth", "--bench-stream", file, "--bench-rate", rate}
	if durable {
		args = append(args, "--bench-durable", "--data", b.TempDir())
	} else {
		args = append(args, "--ephemeral")
	}
	sessions := make(chan string, 1)
	p := servetest.Start(b, bin, servetest.Options{Env: append(os.Environ(), "LOOKOUT_TOKEN="), Line: func(line string) {
		if s, ok := strings.CutPrefix(line, "bench session: "); ok {
			sessions <- s
		}
	}}, args...)
	cmd := p.Cmd
	defer func() {
		// An interrupt lets the host write LOOKOUT_CPUPROFILE; a kill
		// follows if it does not exit.
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	url := p.URL
	var session string
	select {
	case session = <-sessions:
	case <-time.After(time.Minute):
		b.Fatal("the bench host did not report its session")
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients := make([]*lsync.Client, n)
	for i := range clients {
		c, err := lsync.New(lsync.Options{URL: url, SessionID: session, CacheDir: "-", HostsFile: "-", Deltas: true, ClientName: "fanout-bench"})
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = c.Run(ctx) }()
		clients[i] = c
	}
	for _, c := range clients {
		waitPicture(b, c, "live", func(p lsync.Picture) bool { return p.Freshness.State == lsync.Live })
	}
	time.Sleep(500 * time.Millisecond) // the subscriptions settle

	host0, own0 := cpuSeconds(b, cmd.Process.Pid), ownCPU()
	t0 := time.Now()
	clients[0].Submit("go")
	for _, c := range clients {
		waitPicture(b, c, "the whole answer", func(p lsync.Picture) bool { return wholeAnswer(p.View, size) })
	}
	wall := time.Since(t0)
	host := time.Duration((cpuSeconds(b, cmd.Process.Pid) - host0) * float64(time.Second))
	return fanoutResult{host: host, wall: wall, clients: ownCPU() - own0}
}

// wholeAnswer: the turn ended, and an agent message holds size bytes.
func wholeAnswer(v *model.View, size int) bool {
	if v == nil || v.ActiveTurn != nil || v.LastTurn == nil {
		return false
	}
	for _, it := range v.Items {
		if it.Kind == model.KindAgentMessage && !it.IsOpen() && len(it.Text()) == size {
			return true
		}
	}
	return false
}

// waitPicture waits until c's picture satisfies cond.
func waitPicture(b *testing.B, c *lsync.Client, what string, cond func(lsync.Picture) bool) {
	deadline := time.After(3 * time.Minute)
	for {
		if p := c.Current(); cond(p) {
			return
		}
		select {
		case <-c.Updates():
		case <-deadline:
			b.Fatalf("a client never saw %s: %+v", what, c.Current().Freshness)
		}
	}
}

// ownCPU is this process's user and system CPU time: the clients'.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
