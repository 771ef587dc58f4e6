package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/agent/claude"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/host"
)

// agentNames lists the agents a host can run, for --help.
var agentNames = []string{"demo", "codex", "claude", "opencode"}

// agentFlags choose and configure the agent a host runs (`lookout` and
// `lookout serve`).
type agentFlags struct {
	name      string
	cwd       string
	codexBin  string
	codexHome string

	claudeBin       string
	claudeConfigDir string
	opencode        opencodeFlags
}

func (a *agentFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&a.name, "agent", "demo", "agent that runs turns: "+strings.Join(agentNames, ", "))
	f.StringVar(&a.cwd, "cwd", "", "directory the agent works in (default: the current directory)")
	f.StringVar(&a.codexBin, "codex-bin", "", "codex executable (default: $"+codex.EnvBinary+", then codex on PATH)")
	f.StringVar(&a.codexHome, "codex-home", "", "CODEX_HOME for Codex (default: your own Codex configuration and login)")
	f.StringVar(&a.claudeBin, "claude-bin", "", "claude executable (default: $"+claude.EnvBinary+", then claude on PATH)")
	f.StringVar(&a.claudeConfigDir, "claude-config-dir", "", "CLAUDE_CONFIG_DIR for Claude Code (default: your own Claude Code settings and login)")
	a.opencode.register(f)
}

// isDemo reports whether the flags pick the scripted demo agent.
func (a *agentFlags) isDemo() bool { return a.name == "" || a.name == "demo" }

// dataDir is the default data directory of a host running this agent.
func (a *agentFlags) dataDir() string { return host.AgentDataDir(a.name) }

// build checks the agent's program and returns the host options naming
// it. A missing or too old program is a usage-class error (exit 2) that
// says how to install it, before any host or UI starts.
func (a *agentFlags) build(ctx context.Context) (host.Options, error) {
	switch a.name {
	case "", "demo":
		return host.Options{Agent: "demo"}, nil
	case "codex":
		return a.buildCodex(ctx)
	case "claude":
		return a.buildClaude(ctx)
	case "opencode":
		return a.buildOpenCode(ctx)
	}
	return host.Options{}, usageErr(fmt.Errorf("unknown agent %q (available: %s)", a.name, strings.Join(agentNames, ", ")))
}

// buildCodex checks Codex and returns the host options running it.
func (a *agentFlags) buildCodex(ctx context.Context) (host.Options, error) {
	bin, cwd, err := a.checkProgram(ctx, a.codexBin, codex.FindBinary, codex.CheckVersion)
	if err != nil {
		return host.Options{}, err
	}
	home, err := absIfSet(a.codexHome)
	if err != nil {
		return host.Options{}, usageErr(err)
	}
	return host.Options{Agent: "codex", AgentImpl: codex.New(codex.Options{Bin: bin, Home: home, Cwd: cwd})}, nil
}

// buildClaude checks Claude Code and returns the host options running it.
func (a *agentFlags) buildClaude(ctx context.Context) (host.Options, error) {
	bin, cwd, err := a.checkProgram(ctx, a.claudeBin, claude.FindBinary, claude.CheckVersion)
	if err != nil {
		return host.Options{}, err
	}
	dir, err := absIfSet(a.claudeConfigDir)
	if err != nil {
		return host.Options{}, usageErr(err)
	}
	return host.Options{Agent: "claude", AgentImpl: claude.New(claude.Options{Bin: bin, ConfigDir: dir, Cwd: cwd})}, nil
}

// checkProgram finds an agent's program (flag, else the bridge's own
// default), checks its version, and resolves --cwd: what every real agent
// needs before its bridge is made. Its errors are usage errors.
func (a *agentFlags) checkProgram(ctx context.Context, flag string, find func(string) (string, error),
	check func(context.Context, string) (string, error)) (bin, cwd string, err error) {
	if bin, err = find(flag); err != nil {
		return "", "", usageErr(err)
	}
	if _, err = check(ctx, bin); err != nil {
		return "", "", usageErr(err)
	}
	if cwd, err = a.workDir(); err != nil {
		return "", "", usageErr(err)
	}
	return bin, cwd, nil
}

// absIfSet is dir made absolute, or "" when dir is "" (the agent's own
// default).
func absIfSet(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	return filepath.Abs(dir)
}

// workDir is --cwd made absolute, or the current directory; it must be a
// directory.
func (a *agentFlags) workDir() (string, error) {
	dir := a.cwd
	if dir == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("--cwd %s is not a directory", dir)
	}
	return abs, nil
}

// agentsHelp is the part of `lookout serve --help` about real agents.
const agentsHelp = `
Codex (--agent codex): every session is one Codex thread, run by a
"codex app-server" child in --cwd with your own Codex configuration and
login (or --codex-home). The thread is kept with the session, so a host
restart or a Codex crash resumes the same conversation. Shown: streamed
answers, reasoning summaries, commands (output, exit code) as tool calls,
file changes as diffs, approvals (approve, deny, approve for the session),
token usage, errors and retry notices; interrupt stops the Codex turn.
Not yet: images and other attachments, MCP tool calls and web searches
(shown as generic items), Codex's plan updates, and questions Codex asks
other than approvals (declined with a warning).
Needs codex ` + codex.MinVersion + ` or newer: --codex-bin, $` + codex.EnvBinary + `, or codex on PATH.

Claude Code (--agent claude): every session is one Claude Code session,
run by a "claude -p" child (stream-json) in --cwd with your own Claude
Code settings and login (or --claude-config-dir). The session is kept
with the Lookout session, so a host restart or a Claude Code crash
resumes the same conversation (--resume). Shown: streamed answers and
thinking, tool calls with their input and output (Bash with its exit
code), Edit and Write as file changes with diffs, permission prompts as
approvals (approve, deny, approve for the session), usage and cost,
errors, retry notices and compactions; interrupt stops the Claude Code
turn. Not yet: images and other attachments, subagents' own steps,
questions Claude Code asks (AskUserQuestion, refused with a warning),
choosing the model or permission mode from Lookout.
Needs claude ` + claude.MinVersion + ` or newer: --claude-bin, $` + claude.EnvBinary + `, or claude on PATH.
` + opencodeHelp
