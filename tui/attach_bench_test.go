package tui

import (
	"fmt"
	"strconv"
	"testing"
)

// BenchmarkAttachFirstPaint measures attaching to a running host whose
// session holds 1k, 10k or 100k items: from a new client (no replica
// cache) to the newest item laid out on a 120x40 screen. It covers the
// client's dial, initialize and subscribe, the host's snapshot of the
// newest items, the fold and the first layout; not the process start or
// the terminal's write. Target (docs/performance.md): 100 ms, flat in the
// session's size.
func BenchmarkAttachFirstPaint(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("items=%dk", n/1000), func(b *testing.B) {
			o := longHostSession(b, n)
			newest := "bulk item " + strconv.Itoa(n-1)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				c, stop := runSource(b, o)
				d := newDriver(b, 120, 40, Options{Source: c})
				paint(b, d, c, "the newest item", func() bool { return d.lineOf(newest) >= 0 })
				b.StopTimer()
				stop()
				b.StartTimer()
			}
		})
	}
}
