package cli

import (
	"fmt"
	"io"
	"os"
	gosync "sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/lookout-sh/lookout/host"
)

// benchFlags are `lookout serve`'s benchmark options (docs/performance.md):
// a host whose agent streams a file, used by the end-to-end rendering
// benchmark. They change nothing unless --bench-stream is given.
type benchFlags struct {
	file    string
	chunk   int
	rate    float64
	durable bool
}

func (b *benchFlags) register(f *pflag.FlagSet) {
	f.StringVar(&b.file, "bench-stream", "", "benchmark host: answer every prompt by streaming this file as one agent message (in memory, no field bound short of the file; see docs/performance.md)")
	f.IntVar(&b.chunk, "bench-chunk", 10, "with --bench-stream: bytes per delta")
	f.Float64Var(&b.rate, "bench-rate", 0, "with --bench-stream: deltas per second (0: as fast as the host takes them)")
	f.BoolVar(&b.durable, "bench-durable", false, "with --bench-stream: journal the sessions as a durable host does (in --data), instead of in memory only")
}

// apply turns opts into a benchmark host's: the stream agent, a field
// bound that holds the file whole, outbound queues that never shed a
// delta, no demo session and an ephemeral journal (a durable one with
// --bench-durable, so that a benchmark can count what journaling the
// stream costs). It reports the agent
// and prints "bench: last delta at <unix ns>" to out after each stream's
// last delta, so a harness can time the lag to the screen.
func (b *benchFlags) apply(opts *host.Options, out io.Writer) error {
	if b.file == "" {
		return nil
	}
	data, err := os.ReadFile(b.file)
	if err != nil {
		return usageErr(fmt.Errorf("--bench-stream: %w", err))
	}
	var mu gosync.Mutex
	opts.AgentImpl = &host.StreamAgent{Text: string(data), Chunk: b.chunk, Rate: b.rate, OnLastDelta: func(t time.Time) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, "bench: last delta at %d\n", t.UnixNano())
	}}
	opts.Agent = "bench"
	opts.FieldBound = max(host.FieldBound, len(data)+1)
	opts.OutboundQueue = 1 << 20
	opts.OutboundBytes = 1 << 30
	opts.DemoSession = false
	if !b.durable {
		opts.Ephemeral = true
	}
	return nil
}
