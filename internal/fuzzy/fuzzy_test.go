package fuzzy

import (
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	names := []string{"compact", "cost", "clear", "context", "status", "sessions"}
	cases := []struct {
		query string
		want  []string // names in the order returned
	}{
		{"", names},
		{"comp", []string{"compact"}},
		{"COMP", []string{"compact"}},
		{"cst", []string{"cost"}},
		{"cot", []string{"cost", "compact", "context"}},
		{"ses", []string{"sessions"}},
		{"zzz", nil},
		{"s", []string{"status", "sessions", "cost"}},
	}
	for _, c := range cases {
		var got []string
		for _, m := range Rank(c.query, names) {
			got = append(got, names[m.Index])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Rank(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

func TestRankMarksMatchedBytes(t *testing.T) {
	m := Rank("cpt", []string{"compact"})
	if len(m) != 1 || !slices.Equal(m[0].Matched, []int{0, 3, 6}) {
		t.Fatalf("Rank(cpt, compact) = %+v, want matched bytes 0, 3, 6", m)
	}
}
