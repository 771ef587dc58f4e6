package sync

import (
	"slices"
	"testing"
)

func TestErrorsSince(t *testing.T) {
	cases := []struct {
		name  string
		errs  []string
		count uint64
		seen  uint64
		want  []string
		lost  uint64
	}{
		{"nothing recorded", nil, 0, 0, nil, 0},
		{"all new", []string{"a", "b"}, 2, 0, []string{"a", "b"}, 0},
		{"one new", []string{"a", "b", "c"}, 3, 2, []string{"c"}, 0},
		{"none new", []string{"a", "b"}, 2, 2, nil, 0},
		{"window slid: the held ones are the newest", []string{"c", "d"}, 4, 1, []string{"c", "d"}, 1},
		{"window slid, some seen", []string{"c", "d", "e"}, 5, 3, []string{"d", "e"}, 0},
		{"seen beyond the count (another client)", []string{"a"}, 1, 5, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, lost := Picture{Errors: c.errs, ErrorCount: c.count}.ErrorsSince(c.seen)
			if !slices.Equal(got, c.want) || lost != c.lost {
				t.Fatalf("got %q lost %d, want %q lost %d", got, lost, c.want, c.lost)
			}
		})
	}
}
