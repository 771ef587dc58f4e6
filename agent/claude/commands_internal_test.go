package claude

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
)

func TestInitializeCommands(t *testing.T) {
	long := strings.Repeat("x", 500)
	cases := []struct {
		res  string
		want []host.AgentCommand
	}{
		{`{"commands":[{"name":"compact","description":"Clear history but keep a summary","argumentHint":"<instructions>"},{"name":"/review","description":""},{"name":""}]}`,
			[]host.AgentCommand{{Name: "compact", Description: "Clear history but keep a summary", ArgumentHint: "<instructions>"}, {Name: "review"}}},
		{`{"commands":[{"name":"dataviz","description":"` + long + `"}]}`,
			[]host.AgentCommand{{Name: "dataviz", Description: strings.Repeat("x", maxCommandDescription) + "…"}}},
		{`{"commands":[]}`, nil},
		{`{}`, nil},
		{`not json`, nil},
	}
	for _, c := range cases {
		got := initializeCommands(json.RawMessage(c.res))
		if !slices.Equal(got, c.want) {
			t.Errorf("initializeCommands(%.60s) = %+v, want %+v", c.res, got, c.want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	cases := []struct{ name, prompt, want string }{
		{"compact", "/compact", "/compact"},
		{"compact", "/compact keep the tests", "/compact keep the tests"},
		{"compact", "/compactor", "/compact"},
		{"compact", "summarise please", "/compact"},
		{"plugin:deploy", "/plugin:deploy now", "/plugin:deploy now"},
	}
	for _, c := range cases {
		if got := commandLine(c.name, c.prompt); got != c.want {
			t.Errorf("commandLine(%q, %q) = %q, want %q", c.name, c.prompt, got, c.want)
		}
	}
}

func TestInitCommands(t *testing.T) {
	got := initCommands([]string{"compact", "/cost", ""})
	if want := []host.AgentCommand{{Name: "compact"}, {Name: "cost"}}; !slices.Equal(got, want) {
		t.Fatalf("initCommands = %+v, want %+v", got, want)
	}
}
