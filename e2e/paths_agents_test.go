package e2e

import (
	"github.com/lookout-sh/lookout/agent/agenttest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
)

// The agents TestEveryPath drives: how to start each behind `lookout`,
// and how its fake model's recorded requests read, so that a row can
// assert what reached the model without knowing the agent's API.

// modelCall is one model request of a turn (not a title or compaction
// side request), reduced to what the rows check.
type modelCall struct {
	// prompts are the conversation's prompts, oldest first; the last is
	// the newest.
	prompts []string
	// toolResults are the texts of the tool results the request carries,
	// oldest first (a refused tool's result says so).
	toolResults []string
	// all joins every text of the request (prompts, answers, tool
	// results), to find a text wherever the agent put it.
	all string
	// shape lists the request's input items briefly, for failure messages.
	shape []string
}

func (c modelCall) lastPrompt() string {
	if len(c.prompts) == 0 {
		return ""
	}
	return c.prompts[len(c.prompts)-1]
}

func (c modelCall) lastToolResult() string {
	if len(c.toolResults) == 0 {
		return ""
	}
	return c.toolResults[len(c.toolResults)-1]
}

// launched is an agent ready to start behind lookout.
type launched struct {
	// bin is the agent's program ("" for the demo).
	bin string
	// flags are lookout's flags for it; env the variables its process
	// needs.
	flags string
	env   []string
	// calls reads the fake model's requests (nil for the demo, which has
	// no model).
	calls func() []modelCall
	// compactions counts the fake model's compaction requests: the
	// summaries the agent's own compaction asks for (nil for the demo).
	compactions func() int
}

// pathAgent is one agent of the table.
type pathAgent struct {
	name string
	// launch prepares the agent's fake model and home.
	launch func(t *testing.T) launched
	// afterTool starts the agent's answer once a tool ran.
	afterTool string
	// slowDelta is the start of a "slow" turn's answer.
	slowDelta string
	// deniedError is the denied tool's error, in the journal and on
	// screen; toldDenied is what the model's next request holds as the
	// denied tool's result ("" when the agent asks the model nothing
	// more: OpenCode ends the turn on a plain reject, measured).
	deniedError, toldDenied string
	// deniedAnswer is the model's answer after a refusal, on screen.
	deniedAnswer string
}

func (a pathAgent) demo() bool { return a.name == "demo" }

var pathAgents = []pathAgent{
	{
		name: "demo",
		launch: func(t *testing.T) launched {
			return launched{flags: "--pace 2ms"}
		},
		afterTool:   "That is all for now.",
		deniedError: "the user denied this command",
		slowDelta:   "Working on it; this will take a while.",
	},
	{
		name:         "codex",
		launch:       func(t *testing.T) launched { return launchCodex(t, codextest.FakeOptions{}) },
		deniedError:  "the user declined this command",
		toldDenied:   `Rejected(\"rejected by user\")`,
		deniedAnswer: "rejected by user",
		afterTool:    codextest.CommandAnswerPrefix,
		slowDelta:    "slow0 ",
	},
	{
		name:         "claude",
		launch:       func(t *testing.T) launched { return launchClaude(t, claudetest.FakeOptions{}) },
		deniedError:  "The user denied this in Lookout.",
		toldDenied:   "The user denied this in Lookout.",
		deniedAnswer: claudetest.ToolErrorPrefix + " The user denied this in Lookout.",
		afterTool:    claudetest.CommandAnswerPrefix,
		slowDelta:    "slow0 ",
	},
	{
		name:        "opencode",
		launch:      func(t *testing.T) launched { return launchOpenCode(t, opencodetest.FakeOptions{}) },
		deniedError: "the user declined this tool call",
		afterTool:   opencodetest.FollowupPrefix,
		slowDelta:   "slow0 ",
	},
}

// launchCodex prepares Codex behind lookout against its fake model, made
// with opts.
func launchCodex(t *testing.T, opts codextest.FakeOptions) launched {
	bin := codextest.Binary(t)
	fake := codextest.NewFakeModel(t, opts)
	env := codextest.Home(t, fake.URL(), codextest.HomeOptions{})
	return launched{bin: bin, flags: "--agent codex --codex-bin " + shellQuote(bin), env: env, calls: func() []modelCall {
		var out []modelCall
		for _, r := range fake.Requests() {
			if r.Scenario == "side" {
				continue
			}
			c := modelCall{prompts: r.Prompts()}
			var all []string
			for _, it := range r.Input {
				if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
					c.toolResults = append(c.toolResults, it.Output)
				}
				all = append(all, it.Text, it.Output)
				c.shape = append(c.shape, brief(it.Type+"/"+it.Role+": "+it.Text+it.Output+it.Arguments))
			}
			c.all = strings.Join(all, "\n")
			out = append(out, c)
		}
		return out
	}, compactions: func() int {
		n := 0
		for _, r := range fake.Requests() {
			if r.Kind == "compaction" {
				n++
			}
		}
		return n
	}}
}

// launchClaude prepares Claude Code behind lookout against its fake
// model, made with opts.
func launchClaude(t *testing.T, opts claudetest.FakeOptions) launched {
	bin := claudetest.Binary(t)
	fake := claudetest.NewFakeModel(t, opts)
	env := claudetest.Home(t, fake.URL(), claudetest.HomeOptions{})
	return launched{bin: bin, flags: "--agent claude --claude-bin " + shellQuote(bin), env: env, calls: func() []modelCall {
		var out []modelCall
		for _, r := range fake.Requests() {
			if r.Scenario == "side" {
				continue
			}
			c := modelCall{prompts: r.Prompts()}
			var all []string
			for _, m := range r.Messages {
				for _, b := range m.Blocks {
					if b.Type == "tool_result" {
						c.toolResults = append(c.toolResults, b.Text)
					}
					all = append(all, b.Text)
					c.shape = append(c.shape, brief(m.Role+"/"+b.Type+": "+b.Text+string(b.Input)))
				}
			}
			c.all = strings.Join(all, "\n")
			out = append(out, c)
		}
		return out
	}, compactions: func() int {
		n := 0
		for _, r := range fake.Requests() {
			if r.IsCompaction() {
				n++
			}
		}
		return n
	}}
}

// launchOpenCode prepares OpenCode behind lookout against its fake model,
// made with opts.
func launchOpenCode(t *testing.T, opts opencodetest.FakeOptions) launched {
	bin := opencodetest.Binary(t)
	fake := opencodetest.NewFakeModel(t, opts)
	env := opencodetest.Home(t, fake.URL(), opencodetest.HomeOptions{})
	// The terminal's XDG_CONFIG_HOME (the test's) would hide the
	// opencode.json Home wrote under HOME/.config from OpenCode.
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(agenttest.EnvValue(env, "HOME"), ".config"))
	return launched{bin: bin, flags: "--agent opencode --opencode-bin " + shellQuote(bin), env: env, calls: func() []modelCall {
		var out []modelCall
		for _, r := range fake.TurnRequests() {
			c := modelCall{prompts: r.Prompts()}
			var all []string
			for _, m := range r.Messages {
				if m.Role == "tool" {
					c.toolResults = append(c.toolResults, m.Text)
				}
				all = append(all, m.Text)
				c.shape = append(c.shape, brief(m.Role+": "+m.Text+strings.Join(m.ToolCalls, ",")))
			}
			c.all = strings.Join(all, "\n")
			out = append(out, c)
		}
		return out
	}, compactions: func() int {
		n := 0
		for _, r := range fake.TurnRequests() {
			if r.IsCompaction() {
				n++
			}
		}
		return n
	}}
}

// agentEnvVars are the variables of a kit's environment to hand the
// agent through lookout's command line: everything but what the terminal
// already has.
func agentEnvVars(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "LANG":
			continue
		}
		out = append(out, shellQuote(kv))
	}
	return out
}

// brief cuts s for a failure message.
func brief(s string) string {
	if r := []rune(s); len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// agentProcessIn reports whether a process named comm runs in dir.
func agentProcessIn(comm, dir string) bool {
	if len(comm) > 15 {
		comm = comm[:15] // /proc/PID/comm keeps 15 bytes
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		c, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		if err != nil || strings.TrimSpace(string(c)) != comm {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			return true
		}
	}
	return false
}
