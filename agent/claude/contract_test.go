package claude_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/model"
)

// TestContract runs the behaviours every bridge shows against the real
// Claude Code (agenttest.RunContract).
func TestContract(t *testing.T) {
	agenttest.RunContract(t, agenttest.Subject{
		Agent:          "claude",
		NewRig:         func(t *testing.T) *agenttest.Rig { return newRig(t, rigOptions{}).Rig },
		PlainAnswer:    claudetest.PlainAnswer,
		PlainReasoning: claudetest.PlainThinking,
		Shell:          "Bash",
		CommandSummary: "Run: ",
		Denied:         "denied",
		// Claude Code suggests rules for the command; the bridge keeps them
		// for the session's process only.
		ForSession: &agenttest.ForSession{Prompt: "run: touch again.txt", Kind: model.KindToolCall, Summary: "touch again.txt", Again: "run: touch again.txt"},
		Checks: map[string]agenttest.Check{
			agenttest.PlainTurn: func(t *testing.T, r *agenttest.Rig, done *model.Event, seen []*model.Event) {
				msg, rs := r.One(model.KindAgentMessage, done.TurnID), r.One(model.KindReasoning, done.TurnID)
				deltas := map[string]int{}
				for _, ev := range seen {
					if ev.Method == model.MethodItemDelta {
						deltas[ev.ItemID+" "+ev.Field]++
					}
				}
				if deltas[msg.ID+" text"] < 3 || deltas[rs.ID+" summary.0"] < 2 {
					t.Errorf("deltas %v, want the answer and the thinking streamed", deltas)
				}
				if r.StateString("model") == "" {
					t.Error("no model state")
				}
				usage := string(r.State.Value("usage"))
				for _, k := range []string{`"contextTokens"`, `"cachedInputTokens"`} {
					if !strings.Contains(usage, k) {
						t.Errorf("usage state = %s, lacks %s", usage, k)
					}
				}
				if cost := string(r.State.Value("costUsd")); cost == "" || cost == "0" {
					t.Errorf("costUsd state = %q", cost)
				}
			},
			agenttest.CommandApproved: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				tool := r.One(model.KindToolCall, done.TurnID)
				if !strings.Contains(string(tool.Field("input")), `"command"`) {
					t.Errorf("tool input %s", tool.Field("input"))
				}
				answers := r.Items(model.KindAgentMessage, done.TurnID)
				if len(answers) != 2 || answers[0].Text() != claudetest.RunPreamble || !strings.HasPrefix(answers[1].Text(), claudetest.CommandAnswerPrefix) {
					t.Errorf("answers around the command: %d", len(answers))
				}
			},
			agenttest.CommandDenied: func(t *testing.T, r *agenttest.Rig, done *model.Event, _ []*model.Event) {
				if !strings.HasPrefix(r.Last(model.KindAgentMessage, done.TurnID).Text(), claudetest.ToolErrorPrefix) {
					t.Error("the model was not told of the denial")
				}
			},
			agenttest.ApprovedForSession: func(t *testing.T, r *agenttest.Rig, _ *model.Event, _ []*model.Event) {
				// Nothing was written to the project's settings.
				if _, err := os.Stat(filepath.Join(r.Work, ".claude")); err == nil {
					t.Error("approving for the session wrote .claude/ settings into the project")
				}
			},
			agenttest.HostRestartResumes: func(t *testing.T, r *agenttest.Rig, _ *model.Event, _ []*model.Event) {
				session := r.StateString("agentSessionId")
				reqs := r.Bridge.(*rig).fake.Requests()
				if last := reqs[len(reqs)-1]; last.SessionID != session || !slices.Contains(last.AssistantTexts(), "remember the colour teal") {
					t.Errorf("the resumed request is session %q with answers %q", last.SessionID, last.AssistantTexts())
				}
			},
		},
	})
}
