// Package fuzzy ranks candidate strings against what the user typed: the
// one matcher behind Lookout's completion lists (slash commands now, and
// the session picker and @ mentions as they move to it). It wraps
// github.com/sahilm/fuzzy so that its callers share one ranking rule.
package fuzzy

import (
	"sort"

	sahil "github.com/sahilm/fuzzy"
)

// Match is one candidate that matched: its index in the candidates given
// and the byte offsets of the matched characters (for highlighting).
type Match struct {
	Index   int
	Matched []int
}

// Rank returns the candidates that match query, best first; candidates of
// equal score keep their given order. An empty query matches every
// candidate, in order. Matching is case-insensitive, and each character of
// query must appear in the candidate in order (not necessarily adjacent).
func Rank(query string, candidates []string) []Match {
	if query == "" {
		out := make([]Match, len(candidates))
		for i := range candidates {
			out[i] = Match{Index: i}
		}
		return out
	}
	found := sahil.FindNoSort(query, candidates)
	sort.SliceStable(found, func(i, j int) bool { return found[i].Score > found[j].Score })
	out := make([]Match, len(found))
	for i, m := range found {
		out[i] = Match{Index: m.Index, Matched: m.MatchedIndexes}
	}
	return out
}
