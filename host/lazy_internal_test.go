package host

import "testing"

func TestStubFor(t *testing.T) {
	sum := &shutdownSummary{Sessions: map[string]sessionStub{"quiet": {Title: "t", Head: 40}}}
	for _, tc := range []struct {
		name string
		sum  *shutdownSummary
		id   string
		last int64
		stub bool
	}{
		{"no summary: an abnormal death or an older host", nil, "quiet", 40, false},
		{"quiet and unchanged", sum, "quiet", 40, true},
		{"appended to since", sum, "quiet", 41, false},
		{"not quiet at shutdown (queued turns)", sum, "busy", 12, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := stubFor(tc.sum, tc.id, tc.last); ok != tc.stub {
				t.Fatalf("stub %v, want %v", ok, tc.stub)
			}
		})
	}
}
