package agenttest

import (
	"slices"
	"testing"
)

// drain collects what next yields.
func drain(next func() (string, bool)) []string {
	var out []string
	for d, ok := next(); ok; d, ok = next() {
		out = append(out, d)
	}
	return out
}

func TestDeltas(t *testing.T) {
	if got := drain(Deltas("a", "b", "c")); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Deltas yields %q", got)
	}
	if got := drain(Deltas()); got != nil {
		t.Errorf("no deltas yields %q", got)
	}
	if got := drain(NumberedDeltas("slow", 3)); !slices.Equal(got, []string{"slow0 ", "slow1 ", "slow2 "}) {
		t.Errorf("NumberedDeltas yields %q", got)
	}
}

func TestHalves(t *testing.T) {
	for s, want := range map[string][]string{
		"abcd": {"ab", "cd"},
		"aé":   {"a", "é"},
		"":     {"", ""},
	} {
		if got := Halves(s); !slices.Equal(got, want) {
			t.Errorf("Halves(%q) = %q, want %q", s, got, want)
		}
	}
}
