package codex

import (
	"context"
	"log/slog"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
)

// Options configure the Codex bridge.
type Options struct {
	// Bin is the codex executable (see FindBinary).
	Bin string
	// Home, when set, is the CODEX_HOME the app-server runs with; "" keeps
	// the user's own configuration and login.
	Home string
	// Cwd is the directory new Codex threads work in; "" is the host's
	// working directory.
	Cwd string
	// Env is the app-server's environment; nil means the host's own.
	// Variables named LOOKOUT_* are never passed on.
	Env []string
	// InterruptGrace is how long an interrupted turn may take to end
	// before the app-server is killed; 0 means 5 s.
	InterruptGrace time.Duration
	// Logger receives the bridge's diagnostics; nil discards them.
	Logger *slog.Logger
}

// EnvBinary is the environment variable naming the codex executable when
// no --codex-bin is given.
const EnvBinary = "LOOKOUT_CODEX_BIN"

// MinVersion is the oldest Codex CLI whose app-server protocol the bridge
// speaks.
const MinVersion = "0.169.0"

// InstallHint says how to get a Codex CLI the bridge can use.
const InstallHint = "install it with `npm install -g @openai/codex@" + MinVersion + "` (or newer), or name the binary with --codex-bin or $" + EnvBinary

// ErrNotFound is wrapped by FindBinary's error when no codex executable
// exists. It is child.ErrNotFound, the same for every bridge.
var ErrNotFound = child.ErrNotFound

// program is the codex executable as FindBinary and CheckVersion check it.
var program = child.Program{
	Name:        "codex",
	Called:      "the codex CLI",
	Title:       "a Codex CLI",
	EnvVar:      EnvBinary,
	MinVersion:  MinVersion,
	InstallHint: InstallHint,
}

// FindBinary resolves the codex executable: flag (when not empty), else
// $LOOKOUT_CODEX_BIN, else `codex` on PATH.
func FindBinary(flag string) (string, error) { return program.Find(flag) }

// CheckVersion runs `codex --version` ("codex-cli 0.169.0") and refuses a
// binary older than MinVersion, or one that does not say its version.
func CheckVersion(ctx context.Context, bin string) (string, error) {
	return program.Check(ctx, bin)
}
