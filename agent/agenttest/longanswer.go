package agenttest

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// LongAnswer is the answer of a fake model's "long" scenario: a long text
// cut into deltas of Chunk runes, sent as fast as the agent reads them or
// at Rate deltas a second. The benchmarks stream shared/bench/longmd.md
// this way (20,056 deltas of 10 characters), in a burst and at 2,000 a
// second.
type LongAnswer struct {
	// Text is the answer ("" means LongMarkdown()).
	Text string
	// Chunk is the size of a delta in runes (0 means 10).
	Chunk int
	// Rate is deltas per second; 0 or less sends them as fast as possible.
	Rate float64
}

// longFlushEvery batches the flushes of a burst: one write to the agent
// per 64 events, not one per 10-character delta.
const longFlushEvery = 64

// Pieces yields the answer's deltas in order.
func (a LongAnswer) Pieces() func() (delta string, ok bool) {
	rest, n := a.Text, a.Chunk
	if rest == "" {
		rest = LongMarkdown()
	}
	if n <= 0 {
		n = 10
	}
	return func() (string, bool) {
		if rest == "" {
			return "", false
		}
		d := CutRunes(rest, n)
		rest = rest[len(d):]
		return d, true
	}
}

// Stream writes the answer's deltas on s with emit (one event each). At a
// Rate, delta i is due i/Rate seconds after the first; what was written is
// flushed before each pause, so a stream that falls behind catches up
// without pausing. Either way the events are flushed at least every 64,
// and once more at the end. It returns false as soon as the stream ends
// or emit fails.
func (a LongAnswer) Stream(s *SSE, emit func(delta string) bool) bool {
	defer func(every int) { s.FlushEvery = every }(s.FlushEvery)
	s.FlushEvery = longFlushEvery
	next := a.Pieces()
	start := time.Now()
	for i := 0; ; i++ {
		d, ok := next()
		if !ok {
			return s.Flush()
		}
		if a.Rate > 0 {
			if wait := time.Until(start.Add(time.Duration(float64(i) / a.Rate * float64(time.Second)))); wait > 0 {
				if !s.Flush() || !s.Sleep(wait) {
					return false
				}
			}
		}
		if !emit(d) {
			return false
		}
	}
}

// CutRunes is the prefix of s holding at most n runes.
func CutRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// LongMarkdown is about 100 KB of generated markdown (headings,
// paragraphs, lists and code blocks): a long answer when a test names
// none.
func LongMarkdown() string {
	var b strings.Builder
	for i := 1; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, "## Section %d\n\nThis is paragraph %d of the long answer. It has **bold**, *italic* and `code` spans so a renderer has work to do.\n\n", i, i)
		fmt.Fprintf(&b, "- item %d.1\n- item %d.2\n- item %d.3\n\n", i, i, i)
		fmt.Fprintf(&b, "```go\nfunc section%d() int { return %d }\n```\n\n", i, i)
	}
	return b.String()
}
