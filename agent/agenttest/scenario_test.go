package agenttest

import "testing"

var testScenarios = []Scenario{
	{"http 500", "http 500", ""},
	{"retry", "retry", ""},
	{"run sandboxed", "run sandboxed:", ""},
	{"run", "run:", ""},
	{"say", "say:", ""},
	{"plain", "", ""},
}

func TestMatchScenario(t *testing.T) {
	for _, c := range []struct {
		prompt, name, arg string
		ok                bool
	}{
		{"HTTP 500 please", "http 500", "", true},
		{"please retry", "retry", "", true},
		{"retrying", "", "", false}, // whole words only
		{"Run sandboxed: echo hi", "run sandboxed", "echo hi", true},
		{"run: echo hello\nmore text", "run", "echo hello", true},
		{"run: echo retry", "retry", "", true}, // the table's order decides
		{"İstanbul RUN: echo İ", "run", "echo İ", true},
		{"say:", "say", "", true},
		{"hello", "", "", false}, // the default is the caller's
	} {
		name, arg, ok := MatchScenario(c.prompt, testScenarios)
		if name != c.name || arg != c.arg || ok != c.ok {
			t.Errorf("%q: %q %q %v, want %q %q %v", c.prompt, name, arg, ok, c.name, c.arg, c.ok)
		}
	}
}

func TestFindWords(t *testing.T) {
	for _, c := range []struct {
		s, kw string
		want  int
	}{
		{"a long one", "long", 2},
		{"belong", "long", -1},
		{"longer", "long", -1},
		{"long_name", "long", -1},
		{"run:x", "run:", 0},     // a keyword ending in punctuation may touch a word
		{"rerun: x", "run:", -1}, // but not start inside one
		{"Model Error!", "model error", 0},
		{"é long", "long", 3},
	} {
		if got := FindWords(c.s, c.kw); got != c.want {
			t.Errorf("FindWords(%q, %q) = %d, want %d", c.s, c.kw, got, c.want)
		}
	}
}
