package host

import (
	"fmt"
	"testing"
)

// benchBackends are the durable journals the benchmarks compare.
func benchBackends() []journalBackend {
	var out []journalBackend
	for _, b := range journalBackends() {
		if b.reopen != nil {
			out = append(out, b)
		}
	}
	return out
}

func benchEvent(seq int64) journalEvent {
	return journalEvent{Seq: seq, Method: "item/completed", Params: fmt.Appendf(nil,
		`{"seq":%d,"prevCursor":"s:%d","item":{"id":"0192f0c4-7d2a-7c3e-9a51-%012d","kind":"agentMessage","status":"completed","text":"a durable event of ordinary size, about one line of text"}}`,
		seq, seq-1, seq)}
}

// BenchmarkJournalAppend measures durable events per second through each
// journal, one commit per event (a host flushing after every event) and 64
// per commit (a burst).
func BenchmarkJournalAppend(b *testing.B) {
	for _, be := range benchBackends() {
		for _, per := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/%d-per-commit", be.name, per), func(b *testing.B) {
				j := be.open(b)
				seq := int64(0)
				b.ResetTimer()
				for b.Loop() {
					evs := make([]journalEvent, 0, per)
					for range per {
						seq++
						evs = append(evs, benchEvent(seq))
					}
					if err := j.append("bench", evs, nil, nil, 0); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(seq)/b.Elapsed().Seconds(), "events/s")
			})
		}
	}
}

// BenchmarkJournalCatchUp100k measures reading a session of 100k events
// from the start, in pages of 1000 events (a client catching up), from a
// journal opened afresh (nothing cached).
func BenchmarkJournalCatchUp100k(b *testing.B) {
	const total = 100_000
	for _, be := range benchBackends() {
		b.Run(be.name, func(b *testing.B) {
			j := be.open(b)
			for seq := int64(1); seq <= total; seq += 100 {
				evs := make([]journalEvent, 0, 100)
				for s := seq; s < seq+100; s++ {
					evs = append(evs, benchEvent(s))
				}
				if err := j.append("bench", evs, nil, nil, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				j = be.reopen(b, j)
				b.StartTimer()
				after, n := int64(0), 0
				for {
					evs, more, err := j.readAfter("bench", after, total, MaxPageLimit, PageBytes)
					if err != nil {
						b.Fatal(err)
					}
					n += len(evs)
					if len(evs) > 0 {
						after = evs[len(evs)-1].Seq
					}
					if !more {
						break
					}
				}
				if n != total {
					b.Fatalf("caught up %d events, want %d", n, total)
				}
			}
			b.ReportMetric(float64(total*b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
