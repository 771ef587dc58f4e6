package render

import (
	"time"

	"github.com/dlclark/regexp2"
)

// regexp2 bounds a match by MatchTimeout (chroma sets 250 ms on every
// rule, so that no text can make a rule backtrack for ever), but it reads
// the time from a clock goroutine that ticks every 100 ms. On a loaded
// machine that goroutine can be starved and then jump the clock forward,
// and a match that has only just started fails with a timeout it never
// spent: a plain "}" then comes out as an error token, painted red.

// matchRetries bounds how often a match that timed out too soon is asked
// again.
const matchRetries = 3

// findAt is re's match starting at pos, asked again when it timed out
// sooner than it could have (spuriousTimeout). A genuine timeout still
// ends the match, after at most twice the budget.
func findAt(re *regexp2.Regexp, text []rune, pos int) (*regexp2.Match, error) {
	m, err := re.FindRunesMatchStartingAt(text, pos)
	if err != nil {
		m, err = retrySpurious(re.MatchTimeout, func() (*regexp2.Match, error) {
			return re.FindRunesMatchStartingAt(text, pos)
		})
	}
	return m, err
}

// retrySpurious asks find again, after a match that timed out, until it
// succeeds, or fails after taking at least half of budget by the wall
// clock, or matchRetries tries have failed.
func retrySpurious(budget time.Duration, find func() (*regexp2.Match, error)) (m *regexp2.Match, err error) {
	for range matchRetries {
		start := time.Now()
		if m, err = find(); err == nil || !spuriousTimeout(time.Since(start), budget) {
			break
		}
	}
	return m, err
}

// spuriousTimeout reports whether a match that failed after elapsed can
// not have spent its budget: regexp2's clock is coarse, so only a failure
// in less than half the budget is counted as its clock's doing.
func spuriousTimeout(elapsed, budget time.Duration) bool {
	return elapsed < budget/2
}
