package codex

import (
	"encoding/json"
	"testing"
)

func TestPreApproved(t *testing.T) {
	approved := [][]string{{"touch", "x.txt"}, {"git", "status"}}
	cases := []struct {
		command []string
		want    bool
	}{
		{[]string{"touch", "x.txt"}, true},
		{[]string{"git", "status", "--short"}, true},
		{[]string{"touch", "y.txt"}, false},
		{[]string{"git"}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := preApproved(approved, c.command); got != c.want {
			t.Errorf("preApproved(%q) = %v, want %v", c.command, got, c.want)
		}
	}
	if preApproved([][]string{{}}, []string{"rm", "-rf"}) {
		t.Error("an empty prefix approved everything")
	}
}

func TestApprovedPrefixesRoundTrip(t *testing.T) {
	ps := withPrefix(nil, []string{"touch", "x.txt"})
	ps = withPrefix(ps, []string{"touch", "x.txt"})
	if len(ps) != 1 {
		t.Fatalf("the same prefix twice: %q", ps)
	}
	raw, _ := json.Marshal(ps)
	if got := approvedPrefixes(raw); len(got) != 1 || got[0][1] != "x.txt" {
		t.Fatalf("round trip: %q", got)
	}
	if amendmentTokens(json.RawMessage(`null`)) != nil || amendmentTokens(json.RawMessage(`["ls"]`))[0] != "ls" {
		t.Fatal("amendmentTokens")
	}
}
