package opencodetest

import (
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// Version is the OpenCode version the tests are written against.
const Version = "1.18.33"

// BinaryEnv names the environment variable that points at the opencode
// binary.
const BinaryEnv = "LOOKOUT_OPENCODE_BIN"

// AgentsBinary is where InstallCommand puts the native binary, relative to
// the module root. OpenCode has a folder of its own under .agents/: an npm
// install with --no-save prunes what another such install put in the same
// folder.
const AgentsBinary = ".agents/opencode/node_modules/opencode-linux-x64/bin/opencode"

// InstallCommand installs the binary where Binary finds it (run it in the
// module root; .ci/run does).
const InstallCommand = `npm install --no-save --prefix "$PWD/.agents/opencode" opencode-ai@` + Version

// BinarySpec is where the tests find the opencode binary (see
// agenttest.BinarySpec).
var BinarySpec = agenttest.BinarySpec{Package: "opencodetest", Name: "opencode", EnvVar: BinaryEnv,
	AgentsPath: AgentsBinary, InstallCommand: InstallCommand, Version: Version}

// Binary returns the path of the opencode binary for t: $LOOKOUT_OPENCODE_BIN,
// else AgentsBinary in the first directory that has it on the way up from
// the working directory to the module root, else `opencode` on PATH.
// Without one it fails the test when CI=true and skips it otherwise,
// saying how to install it (see agenttest.BinarySpec.Binary).
func Binary(t testing.TB) string {
	t.Helper()
	return BinarySpec.Binary(t)
}
