package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lookout-sh/lookout/internal/natstest"
)

// BenchmarkFleetAtRest creates LOOKOUT_FLEET_SESSIONS sessions (default
// 1,000; the figure is 10,000) on host A of a two-host fleet on a
// 3-node nats-server cluster, then leaves the fleet at rest. It reports
// how long creating them took, how many sessions host B took over from
// the live A meanwhile (the old per-session renewal fell behind and lost
// 1,313 of 10,000), and each process's CPU share at rest.
//
//	go test -run '^$' -bench FleetAtRest -benchtime 1x .
func BenchmarkFleetAtRest(b *testing.B) {
	n := 1000
	if s := os.Getenv("LOOKOUT_FLEET_SESSIONS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for range b.N {
		benchFleetAtRest(b, n)
	}
}

func benchFleetAtRest(b *testing.B, n int) {
	dir := b.TempDir()
	natsBin := natstest.ServerBinary(b, dir)
	nodes := natstest.ProcCluster(b, natsBin, dir, 3)
	urls := natstest.ProcURLs(nodes)
	bin := buildLookout(b)
	a := startFleetHost(b, bin, urls, "scale", "A", 15*time.Second)
	h := startFleetHost(b, bin, urls, "scale", "B", 15*time.Second)

	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range 8 {
		wg.Go(func() {
			c, _, err := dialOnce(a)
			if err != nil {
				failed.Add(1)
				return
			}
			defer c.Close()
			for next.Add(1) <= int64(n) {
				if _, rerr, err := c.Call("session/create", map[string]any{}); err != nil || rerr != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	created := time.Since(start)
	b.ReportMetric(created.Seconds(), "s-to-create")
	b.ReportMetric(float64(failed.Load()), "creates-failed")

	time.Sleep(20 * time.Second) // a few heartbeats and sweeps
	b.ReportMetric(float64(writtenBy(b, urls, "scale", "B")), "sessions-taken-by-B")

	// B's first list of the whole fleet, paged as lookout sessions does.
	rssBefore := rssMiB(b, h.cmd.Process.Pid)
	listStart := time.Now()
	if got := listAll(b, h); got != n {
		b.Fatalf("B lists %d sessions, want %d", got, n)
	}
	b.ReportMetric(time.Since(listStart).Seconds(), "s-first-list-on-B")
	b.ReportMetric(rssMiB(b, h.cmd.Process.Pid)-rssBefore, "MiB-rss-growth-B-after-list")

	procs := map[string]int{"hostA": a.cmd.Process.Pid, "hostB": h.cmd.Process.Pid}
	for i, nd := range nodes {
		procs[fmt.Sprintf("nats%d", i+1)] = nd.Pid()
	}
	before := map[string]float64{}
	for k, pid := range procs {
		before[k] = cpuSeconds(b, pid)
	}
	const rest = 40 * time.Second // past the listing's life (30 s)
	time.Sleep(rest)
	for k, pid := range procs {
		b.ReportMetric(100*(cpuSeconds(b, pid)-before[k])/rest.Seconds(), "%cpu-idle-"+k)
	}
	// Flat in fleet size: compare this figure across LOOKOUT_FLEET_SESSIONS.
	b.ReportMetric(rssMiB(b, h.cmd.Process.Pid), "MiB-rss-B-at-rest")
}

// writtenBy counts the writer leases host holds.
func writtenBy(tb testing.TB, urls, ns, host string) int {
	nc, err := nats.Connect(urls)
	if err != nil {
		tb.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	kv, err := js.KeyValue(ctx, ns+"_writers")
	if err != nil {
		tb.Fatal(err)
	}
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = w.Stop() }()
	count := 0
	for e := range w.Updates() {
		if e == nil {
			break
		}
		var r struct{ Host string }
		if json.Unmarshal(e.Value(), &r) == nil && r.Host == host {
			count++
		}
	}
	return count
}

// cpuSeconds is the user and system CPU time of process pid.
func cpuSeconds(tb testing.TB, pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ
}

// listAll pages session/list through p and counts the entries.
func listAll(tb testing.TB, p *fleetProc) int {
	c, _, err := dialOnce(p)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	count := 0
	params := map[string]any{"limit": 1000}
	for {
		res, rerr, err := c.Call("session/list", params)
		if err != nil || rerr != nil {
			tb.Fatalf("session/list: %v %v", err, rerr)
		}
		var page struct {
			Sessions   []json.RawMessage
			HasMore    bool
			NextCursor string
		}
		if err := json.Unmarshal(res, &page); err != nil {
			tb.Fatal(err)
		}
		count += len(page.Sessions)
		if !page.HasMore {
			return count
		}
		params["cursor"] = page.NextCursor
	}
}

// rssMiB is process pid's resident set.
func rssMiB(tb testing.TB, pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
