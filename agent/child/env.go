package child

import (
	"os"
	"slices"
	"strings"
)

// Env is a child's environment: base (the host's own when nil) without
// Lookout's variables (LOOKOUT_*: the host's token and configuration are
// never passed on), with each name of set that has a value replacing the
// base's, appended in name order. A name whose value in set is "" leaves
// the base's as it is: an option left empty keeps the user's own
// configuration (CODEX_HOME, CLAUDE_CONFIG_DIR).
func Env(base []string, set map[string]string) []string {
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LOOKOUT_") || set[name] != "" {
			continue
		}
		env = append(env, kv)
	}
	names := make([]string, 0, len(set))
	for name, v := range set {
		if v != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		env = append(env, name+"="+set[name])
	}
	return env
}
