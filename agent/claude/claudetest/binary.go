package claudetest

import (
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Version is the Claude Code version the tests are written against.
const Version = "2.1.332"

// BinaryEnv names the environment variable that points at the claude binary.
const BinaryEnv = "LOOKOUT_CLAUDE_BIN"

// AgentsBinary is where `npm install --prefix .agents/claude` puts the
// native binary, relative to the module root (the package's postinstall
// step puts the platform's native build in place of bin/claude.exe). It
// has a prefix of its own: an `npm install --no-save` into a prefix
// removes the packages an earlier one put there (Codex's, in .agents).
const AgentsBinary = ".agents/claude/node_modules/@anthropic-ai/claude-code/bin/claude.exe"

// InstallCommand installs the binary where Binary finds it (run it in the
// module root; .ci/run does).
const InstallCommand = `npm install --no-save --prefix "$PWD/.agents/claude" @anthropic-ai/claude-code@` + Version

// Binary returns the path of the claude binary for t: $LOOKOUT_CLAUDE_BIN,
// else AgentsBinary in the first directory that has it on the way up from
// the working directory to the module root, else `claude` on PATH. Without
// one it fails the test when CI=true and skips it otherwise, saying how to
// install it (see agenttest.BinarySpec.Binary).
func Binary(t testing.TB) string {
	t.Helper()
	return agenttest.BinarySpec{Package: "claudetest", Name: "claude", EnvVar: BinaryEnv, AgentsPath: AgentsBinary,
		InstallCommand: InstallCommand, Version: Version}.Binary(t)
}
