package child

import (
	"regexp"
	"strconv"
)

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// ParseVersion finds the first "X.Y.Z" in a program's --version output
// ("codex-cli 0.169.0", "2.1.332 (Claude Code)"); "" when there is none.
func ParseVersion(out string) string {
	return versionRE.FindString(out)
}

// CompareVersions compares the first "X.Y.Z" of a and of b numerically:
// -1 when a is older, 0 when equal, 1 when newer. A side without a
// version counts as 0.0.0.
func CompareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// AtLeast reports whether version v is min or newer.
func AtLeast(v, min string) bool { return CompareVersions(v, min) >= 0 }

func versionParts(v string) [3]int {
	var out [3]int
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return out
	}
	for i := range out {
		out[i], _ = strconv.Atoi(m[i+1])
	}
	return out
}
