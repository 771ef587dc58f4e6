package claude

import (
	"context"
	"log/slog"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
)

// Options configure the Claude Code bridge.
type Options struct {
	// Bin is the claude executable (see FindBinary).
	Bin string
	// ConfigDir, when set, is the CLAUDE_CONFIG_DIR Claude Code runs with;
	// "" keeps the user's own configuration, settings and login (~/.claude).
	ConfigDir string
	// Cwd is the directory new sessions work in; "" is the host's working
	// directory.
	Cwd string
	// Env is Claude Code's environment; nil means the host's own.
	// Variables named LOOKOUT_* are never passed on.
	Env []string
	// InterruptGrace is how long an interrupted turn may take to end
	// before Claude Code is killed; 0 means 5 s.
	InterruptGrace time.Duration
	// Logger receives the bridge's diagnostics; nil discards them.
	Logger *slog.Logger
}

// EnvBinary is the environment variable naming the claude executable when
// no --claude-bin is given.
const EnvBinary = "LOOKOUT_CLAUDE_BIN"

// MinVersion is the oldest Claude Code whose stream-json protocol the
// bridge was built and tested against.
const MinVersion = "2.1.332"

// InstallHint says how to get a Claude Code the bridge can use.
const InstallHint = "install it with `npm install -g @anthropic-ai/claude-code@" + MinVersion + "` (or newer), or name the binary with --claude-bin or $" + EnvBinary

// ErrNotFound is wrapped by FindBinary's error when no claude executable
// exists. It is child.ErrNotFound, the same for every bridge.
var ErrNotFound = child.ErrNotFound

// program is the claude executable as FindBinary and CheckVersion check
// it: `claude --version` says "2.1.332 (Claude Code)".
var program = child.Program{
	Name:        "claude",
	Called:      "the claude CLI (Claude Code)",
	Title:       "a Claude Code",
	Marker:      "Claude Code",
	EnvVar:      EnvBinary,
	MinVersion:  MinVersion,
	InstallHint: InstallHint,
}

// FindBinary resolves the claude executable: flag (when not empty), else
// $LOOKOUT_CLAUDE_BIN, else `claude` on PATH.
func FindBinary(flag string) (string, error) { return program.Find(flag) }

// CheckVersion runs `claude --version` ("2.1.332 (Claude Code)") and
// refuses a binary older than MinVersion, or one that does not say it is
// Claude Code.
func CheckVersion(ctx context.Context, bin string) (string, error) {
	return program.Check(ctx, bin)
}
