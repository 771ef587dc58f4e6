package codextest

import (
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Version is the Codex CLI version the tests are written against.
const Version = "0.169.0"

// BinaryEnv names the environment variable that points at the codex binary.
const BinaryEnv = "LOOKOUT_CODEX_BIN"

// AgentsBinary is where `npm install --prefix .agents/codex` puts the native
// binary, relative to the module root.
const AgentsBinary = ".agents/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"

// InstallCommand installs the binary where Binary finds it (run it in the
// module root; .ci/run does).
const InstallCommand = `npm install --no-save --prefix "$PWD/.agents/codex" @openai/codex@` + Version

// Binary returns the path of the codex binary for t: $LOOKOUT_CODEX_BIN,
// else AgentsBinary in the first directory that has it on the way up from
// the working directory to the module root, else `codex` on PATH. Without
// one it fails the test when CI=true and skips it otherwise, saying how to
// install it (see agenttest.BinarySpec.Binary).
func Binary(t testing.TB) string {
	t.Helper()
	return agenttest.BinarySpec{Package: "codextest", Name: "codex", EnvVar: BinaryEnv, AgentsPath: AgentsBinary,
		InstallCommand: InstallCommand, Version: Version}.Binary(t)
}
