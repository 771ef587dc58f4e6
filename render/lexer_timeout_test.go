package render

import (
	"errors"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

func TestSpuriousTimeout(t *testing.T) {
	for _, c := range []struct {
		elapsed, budget time.Duration
		want            bool
	}{
		{0, 250 * time.Millisecond, true},
		{100 * time.Millisecond, 250 * time.Millisecond, true},
		{125 * time.Millisecond, 250 * time.Millisecond, false},
		{300 * time.Millisecond, 250 * time.Millisecond, false},
		{0, 0, false}, // no budget: a failure is never the clock's
	} {
		if got := spuriousTimeout(c.elapsed, c.budget); got != c.want {
			t.Errorf("spuriousTimeout(%v, %v) = %v, want %v", c.elapsed, c.budget, got, c.want)
		}
	}
}

func TestRetrySpurious(t *testing.T) {
	match := &regexp2.Match{}
	errTimeout := errors.New("match timeout")
	const budget = 40 * time.Millisecond
	for _, c := range []struct {
		name      string
		fails     int           // retries that fail before one succeeds
		failAfter time.Duration // how long a failing call takes
		wantCalls int
		wantErr   bool
	}{
		{"the first retry matches", 0, 0, 1, false},
		{"spurious timeouts up to the bound", matchRetries - 1, 0, matchRetries, false},
		{"spurious timeouts past the bound", matchRetries, 0, matchRetries, true},
		{"a genuine timeout ends the retries", 5, budget, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			m, err := retrySpurious(budget, func() (*regexp2.Match, error) {
				calls++
				if calls <= c.fails {
					time.Sleep(c.failAfter)
					return nil, errTimeout
				}
				return match, nil
			})
			if calls != c.wantCalls {
				t.Errorf("%d calls, want %d", calls, c.wantCalls)
			}
			if c.wantErr != (err != nil) || (err == nil && m != match) {
				t.Errorf("got %v, %v; want an error: %v", m, err, c.wantErr)
			}
		})
	}
}

func TestFindAtIsRegexp2s(t *testing.T) {
	re := regexp2.MustCompile(`\}+`, regexp2.None)
	re.MatchTimeout = 250 * time.Millisecond
	text := []rune("\t}\n}}")
	for pos := range text {
		m, err := findAt(re, text, pos)
		want, werr := re.FindRunesMatchStartingAt(text, pos)
		if err != nil || werr != nil || (m == nil) != (want == nil) || (m != nil && (m.Index != want.Index || m.String() != want.String())) {
			t.Errorf("at %d: findAt %v, %v; regexp2 %v, %v", pos, m, err, want, werr)
		}
	}
}
