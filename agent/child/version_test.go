package child

import "testing"

func TestParseVersion(t *testing.T) {
	for out, want := range map[string]string{
		"codex-cli 0.169.0\n":     "0.169.0",
		"2.1.332 (Claude Code)\n": "2.1.332",
		"1.2 is not enough":       "",
		"":                        "",
	} {
		if got := ParseVersion(out); got != want {
			t.Errorf("ParseVersion(%q) = %q, want %q", out, got, want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"0.169.0", "0.169.0", 0},
		{"0.170.1", "0.169.0", 1},
		{"0.99.0", "0.169.0", -1}, // numeric, not lexical
		{"1.0.0", "0.169.0", 1},
		{"2.1.40", "2.1.332", -1},
		{"2.2.0", "2.1.332", 1},
		{"codex-cli 0.169.0", "0.169.0", 0},
		{"none", "0.0.1", -1},
	} {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := AtLeast(c.a, c.b); got != (c.want >= 0) {
			t.Errorf("AtLeast(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
