package opencode_test

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/model"
)

// contract is the OpenCode bridge as the contract suite sees it
// (agenttest.RunContract), its sharing behaviours on shared's server:
// TestOpenCodeBridge runs it.
func contract(shared *rig) agenttest.Subject {
	return agenttest.Subject{
		Agent:  "opencode",
		NewRig: func(t *testing.T) *agenttest.Rig { return newRig(t, rigOptions{}).Rig },
		Shared: shared.Rig,
		// One server serves every session, and starting one takes seconds.
		OneProcess:     true,
		Parallel:       true,
		PlainAnswer:    opencodetest.PlainAnswer,
		PlainReasoning: opencodetest.PlainReasoning,
		Titles:         []string{opencodetest.Title},
		Shell:          "bash",
		Denied:         "declined",
		// OpenCode names the patterns to allow from then on; the bridge
		// allows them in the session alone (OpenCode's "always" would
		// allow them in every session of the project).
		ForSession: &agenttest.ForSession{Prompt: "run: echo first-one", Kind: model.KindToolCall, Summary: "echo first-one", Again: "run: echo second-one"},
		Checks: map[string]agenttest.Check{
			agenttest.PlainTurn: func(t *testing.T, r *agenttest.Rig, _ *model.Event, _ []*model.Event) {
				if !strings.HasPrefix(r.StateString("agentSessionId"), "ses_") || r.StateString("model") != "fake/fake-model" {
					t.Errorf("OpenCode session %q, model %q", r.StateString("agentSessionId"), r.StateString("model"))
				}
				// The fake reports 10 prompt tokens (2 cached) and 5
				// completion tokens (1 reasoning); OpenCode counts the
				// reasoning apart.
				usage := string(r.State.Value("usage"))
				for _, k := range []string{`"inputTokens":10`, `"cachedInputTokens":2`, `"outputTokens":4`, `"reasoningOutputTokens":1`,
					`"totalTokens":15`, `"contextTokens":15`, `"contextWindow":100000`} {
					if !strings.Contains(usage, k) {
						t.Errorf("usage state = %s, lacks %s", usage, k)
					}
				}
				if string(r.State.Value("costUsd")) != "0" {
					t.Errorf("cost state %s, want 0 (the fake model is free)", r.State.Value("costUsd"))
				}
			},
			agenttest.CommandApproved: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				if ans := r.One(model.KindAgentMessage, done.TurnID).Text(); !strings.HasPrefix(ans, opencodetest.FollowupPrefix) || !strings.Contains(ans, "approved-output") {
					t.Errorf("answer after the command %q", ans)
				}
			},
			agenttest.ApprovedForSession: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				if tool := r.One(model.KindToolCall, done.TurnID); !strings.Contains(tool.Output(), "second-one") {
					t.Errorf("the command approved for the session showed %q", tool.Output())
				}
			},
		},
	}
}
