package opencode

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/lookout-sh/lookout/host"
)

func TestCommandList(t *testing.T) {
	got := commandList([]ocCommand{
		{Name: "init", Description: "guided AGENTS.md setup", Hints: []string{"$ARGUMENTS"}},
		{Name: "compact", Description: "OpenCode's own name for it"},
		{Name: ""},
	})
	want := []host.AgentCommand{compactCommand(), {Name: "init", Description: "guided AGENTS.md setup", ArgumentHint: "$ARGUMENTS"}}
	if !slices.Equal(got, want) {
		t.Fatalf("commandList = %+v, want %+v", got, want)
	}
}

func TestCommandRequest(t *testing.T) {
	cases := []struct {
		name, prompt, model string
		path                string
		body                map[string]any
		err                 error
	}{
		{"compact", "/compact", "fake/fake-model", "/session/ses_1/summarize",
			map[string]any{"providerID": "fake", "modelID": "fake-model"}, nil},
		{"compact", "/compact", "openrouter/anthropic/claude", "/session/ses_1/summarize",
			map[string]any{"providerID": "openrouter", "modelID": "anthropic/claude"}, nil},
		{"compact", "/compact", "", "", nil, errNoModel},
		{"review", "/review  main ", "fake/fake-model", "/session/ses_1/command",
			map[string]any{"command": "review", "arguments": "main"}, nil},
		{"init", "/init", "", "/session/ses_1/command", map[string]any{"command": "init", "arguments": ""}, nil},
	}
	for _, c := range cases {
		path, body, err := commandRequest(c.name, c.prompt, "ses_1", c.model)
		if path != c.path || !reflect.DeepEqual(body, c.body) || !errors.Is(err, c.err) {
			t.Errorf("commandRequest(%q, %q, %q) = %q %v %v; want %q %v %v", c.name, c.prompt, c.model, path, body, err, c.path, c.body, c.err)
		}
	}
}
