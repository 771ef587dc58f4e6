package child

import "testing"

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"a longer line", 8, "a longer…"},
		{"héllo", 2, "h…"}, // never inside é
		{"日本語", 4, "日…"},
		{"x", 0, "x"[:0] + "…"},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
