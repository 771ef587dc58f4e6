package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
)

// The agents of TestAgentStackBench: how to start each behind `lookout`
// (paths_agents_test.go's launchers) and as its own TUI, each against its
// fake model streaming the benchmark answer.

// stackPrompt selects every fake's "long" scenario.
const stackPrompt = "long"

// stackAgent is one agent of the benchmark.
type stackAgent struct {
	name string
	// behindLookout prepares the agent for `lookout --agent NAME`.
	behindLookout func(t *testing.T, long agenttest.LongAnswer) launched
	// ownTUI prepares the agent's own TUI to run in work.
	ownTUI func(t *testing.T, long agenttest.LongAnswer, work string) ownTUI
}

// ownTUI is an agent's own terminal UI, ready to start in a pane.
type ownTUI struct {
	// bin is the program; env its whole environment (the pane adds TERM).
	bin string
	env []string
	// ready reports that the screen shows the composer, waiting for a
	// prompt.
	ready func(screen string) bool
}

var stackAgents = []stackAgent{
	{
		name: "codex",
		behindLookout: func(t *testing.T, long agenttest.LongAnswer) launched {
			return launchCodex(t, codextest.FakeOptions{LongText: long.Text, LongChunk: long.Chunk, LongRate: long.Rate})
		},
		ownTUI: func(t *testing.T, long agenttest.LongAnswer, work string) ownTUI {
			fake := codextest.NewFakeModel(t, codextest.FakeOptions{LongText: long.Text, LongChunk: long.Chunk, LongRate: long.Rate})
			// Trusted, so no "Trust this folder?" screen; the screen-reader
			// question answered.
			extra := fmt.Sprintf("[tui]\nscreen_reader_detection_done = true\n\n[projects.%q]\ntrust_level = \"trusted\"\n", work)
			env := codextest.Home(t, fake.URL(), codextest.HomeOptions{ExtraConfig: extra})
			return ownTUI{bin: codextest.Binary(t), env: env, ready: func(s string) bool {
				return strings.Contains(s, "Ask Codex to do anything")
			}}
		},
	},
	{
		name: "claude",
		behindLookout: func(t *testing.T, long agenttest.LongAnswer) launched {
			return launchClaude(t, claudetest.FakeOptions{LongText: long.Text, LongChunk: long.Chunk, LongRate: long.Rate})
		},
		ownTUI: func(t *testing.T, long agenttest.LongAnswer, work string) ownTUI {
			fake := claudetest.NewFakeModel(t, claudetest.FakeOptions{LongText: long.Text, LongChunk: long.Chunk, LongRate: long.Rate})
			env := claudetest.Home(t, fake.URL(), claudetest.HomeOptions{})
			seedClaudeTUI(t, agenttest.EnvValue(env, "HOME"), work)
			return ownTUI{bin: claudetest.Binary(t), env: env, ready: func(s string) bool {
				return strings.Contains(s, "Claude Code v") && strings.Contains(s, "❯")
			}}
		},
	},
	{
		name: "opencode",
		behindLookout: func(t *testing.T, long agenttest.LongAnswer) launched {
			return launchOpenCode(t, opencodetest.FakeOptions{LongText: long.Text, LongChunk: long.Chunk, LongRate: long.Rate})
		},
		ownTUI: func(t *testing.T, long agenttest.LongAnswer, work string) ownTUI {
			fake := opencodetest.NewFakeModel(t, opencodetest.FakeOptions{LongText: long.Text, LongChunk: long.Chunk, LongRate: long.Rate})
			env := opencodetest.Home(t, fake.URL(), opencodetest.HomeOptions{})
			home := agenttest.EnvValue(env, "HOME")
			// Its database, logs and caches in the temporary HOME too.
			env = append(env, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
				"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "OPENCODE_DISABLE_SHARE=1")
			return ownTUI{bin: opencodetest.Binary(t), env: env, ready: func(s string) bool {
				return strings.Contains(s, "Ask anything")
			}}
		},
	},
}

// seedClaudeTUI writes the HOME/.claude.json an interactive Claude Code
// needs to start offline: onboarding done (else it checks that it can
// reach Anthropic, and exits), the fake API key approved and work trusted.
func seedClaudeTUI(t *testing.T, home, work string) {
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"lastOnboardingVersion":  claudetest.Version,
		"theme":                  "dark",
		"customApiKeyResponses":  map[string]any{"approved": []string{claudetest.APIKey}, "rejected": []string{}},
		"projects": map[string]any{work: map[string]any{
			"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true, "allowedTools": []string{}}},
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
