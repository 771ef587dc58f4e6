package tui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestDecideSlash(t *testing.T) {
	compact := []agentCommand{{Name: "compact"}, {Name: "review"}}
	runs := slashContext{agent: compact, agentKnown: true, hostRuns: true}
	oldHost := slashContext{agent: compact, agentKnown: true}
	demo := slashContext{agent: []agentCommand{}, agentKnown: true, hostRuns: true}
	unknown := slashContext{hostRuns: true}
	cases := []struct {
		line string
		c    slashContext
		want slashLine
	}{
		{"hello", runs, slashLine{action: slashPrompt}},
		{" /help", runs, slashLine{action: slashPrompt}},
		{"/", runs, slashLine{action: slashPrompt}},
		{"/etc/hosts is broken", runs, slashLine{action: slashPrompt}},
		{"/help", runs, slashLine{slashRunLookout, "help", ""}},
		{"/status", demo, slashLine{slashRunLookout, "status", ""}},
		{"/new", oldHost, slashLine{slashRunLookout, "new", ""}},
		{"/sessions", runs, slashLine{slashRunLookout, "sessions", ""}},
		{"/export now", runs, slashLine{slashRunLookout, "export", "now"}},
		{"/compact", runs, slashLine{slashRunAgent, "compact", ""}},
		{"/compact  keep the tests\n", runs, slashLine{slashRunAgent, "compact", "keep the tests"}},
		{"/compact", demo, slashLine{slashNotOffered, "compact", ""}},
		{"/compact", oldHost, slashLine{slashNotOffered, "compact", ""}},
		{"/compact", unknown, slashLine{slashNotOffered, "compact", ""}},
		{"/review", runs, slashLine{slashRunAgent, "review", ""}},
		{"/review", oldHost, slashLine{slashNotOffered, "review", ""}},
		{"/nosuch", runs, slashLine{slashUnknown, "nosuch", ""}},
		{"/nosuch and more", unknown, slashLine{slashUnknown, "nosuch", "and more"}},
		{"/plugin:deploy", slashContext{agent: []agentCommand{{Name: "plugin:deploy"}}, agentKnown: true, hostRuns: true}, slashLine{slashRunAgent, "plugin:deploy", ""}},
	}
	for _, c := range cases {
		if got := decideSlash(c.line, c.c); got != c.want {
			t.Errorf("decideSlash(%q) = %+v, want %+v", c.line, got, c.want)
		}
	}
}

func TestSlashQuery(t *testing.T) {
	cases := []struct {
		text  string
		query string
		ok    bool
	}{
		{"/", "", true},
		{"/comp", "comp", true},
		{"/compact ", "", false},
		{"/a/b", "", false},
		{"comp", "", false},
		{"", "", false},
		{"/x\ny", "", false},
	}
	for _, c := range cases {
		if q, ok := slashQuery(c.text); q != c.query || ok != c.ok {
			t.Errorf("slashQuery(%q) = %q, %v; want %q, %v", c.text, q, ok, c.query, c.ok)
		}
	}
}

func TestSlashEntriesAndFilter(t *testing.T) {
	agent := []agentCommand{
		{Name: "compact", Description: "the agent's own words"}, // Lookout lists it already
		{Name: "cost", Description: "Show the\x1b]52;c;cGF3bmVk\x07 cost\nof the session"},
		{Name: "bad name", Description: "never listed"},
		{Name: "review", Description: strings.Repeat("é", 300)},
	}
	entries := slashEntries(agent)
	var names []string
	for _, e := range entries {
		names = append(names, e.name)
	}
	want := []string{"help", "status", "new", "sessions", "export", "compact", "cost", "review"}
	if !slices.Equal(names, want) {
		t.Fatalf("entries %q, want %q", names, want)
	}
	cost := entries[6]
	if cost.description != "Show the cost of the session" || cost.origin != slashAgent {
		t.Fatalf("an agent's description is not one clean line: %q", cost.description)
	}
	if d := entries[7].description; len(d) > maxSlashDescription+len("…") || !strings.HasSuffix(d, "…") {
		t.Fatalf("a long description is not cut: %d bytes", len(d))
	}
	filtered := []struct {
		query string
		want  []string
	}{
		{"", want},
		{"comp", []string{"compact"}},
		{"ses", []string{"sessions"}},
		{"st", []string{"status", "cost"}},
		{"zz", nil},
	}
	for _, f := range filtered {
		var got []string
		for _, e := range filterSlash(entries, f.query) {
			got = append(got, e.name)
		}
		if !slices.Equal(got, f.want) {
			t.Errorf("filterSlash(%q) = %q, want %q", f.query, got, f.want)
		}
	}
}

func TestStatusFacts(t *testing.T) {
	st := model.NewState("s1")
	v := st.View()
	v.Values = map[string]json.RawMessage{
		"title":    json.RawMessage(`"Fix the test"`),
		"agent":    json.RawMessage(`"codex"`),
		"model":    json.RawMessage(`"gpt-5\u001b[31m"`),
		"cwd":      json.RawMessage(`"/src/app"`),
		"usage":    json.RawMessage(`{"inputTokens":12000,"cachedInputTokens":2000,"outputTokens":345,"totalTokens":12345,"contextTokens":31000,"contextWindow":200000}`),
		"costUsd":  json.RawMessage(`0.42`),
		"commands": json.RawMessage(`[{"name":"compact"}]`),
		"effort":   json.RawMessage(`"high"`),
		"nested":   json.RawMessage(`{"a":1}`),
	}
	got := statusFacts(v, "127.0.0.1:7777")
	want := [][2]string{
		{"title", "Fix the test"}, {"session", "s1"}, {"host", "127.0.0.1:7777"}, {"agent", "codex"},
		{"model", "gpt-5"}, {"directory", "/src/app"},
		{"usage", "12,345 tokens in total · input 12,000 (2,000 cached), output 345 · context 31,000 of 200,000"},
		{"cost", "$0.42"}, {"agent commands", "1"}, {"effort", "high"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("statusFacts =\n%q\nwant\n%q", got, want)
	}
}
