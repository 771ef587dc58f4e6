package child

import (
	"slices"
	"testing"
)

func TestEnv(t *testing.T) {
	for _, c := range []struct {
		name string
		base []string
		set  map[string]string
		want []string
	}{
		{"Lookout's variables are dropped", []string{"PATH=/bin", "LOOKOUT_TOKEN=secret", "LOOKOUT_CODEX_BIN=/x"}, nil, []string{"PATH=/bin"}},
		{"a set value replaces the base's", []string{"PATH=/bin", "CODEX_HOME=/old"}, map[string]string{"CODEX_HOME": "/new"}, []string{"PATH=/bin", "CODEX_HOME=/new"}},
		{"an empty value keeps the base's", []string{"CLAUDE_CONFIG_DIR=/mine"}, map[string]string{"CLAUDE_CONFIG_DIR": ""}, []string{"CLAUDE_CONFIG_DIR=/mine"}},
		{"set values come last, by name", []string{"A=1"}, map[string]string{"Z": "z", "B": "b"}, []string{"A=1", "B=b", "Z=z"}},
		{"an empty base stays empty", []string{}, nil, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Env(c.base, c.set); !slices.Equal(got, c.want) {
				t.Errorf("Env = %q, want %q", got, c.want)
			}
		})
	}
}

func TestEnvOfNilIsTheHostsOwn(t *testing.T) {
	t.Setenv("LOOKOUT_SECRET", "x")
	t.Setenv("CHILD_TEST_VAR", "kept")
	env := Env(nil, nil)
	if !slices.Contains(env, "CHILD_TEST_VAR=kept") || slices.Contains(env, "LOOKOUT_SECRET=x") {
		t.Errorf("Env(nil) = %q", env)
	}
}
