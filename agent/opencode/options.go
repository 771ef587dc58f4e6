package opencode

import (
	"context"
	"log/slog"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
)

// Options configure the OpenCode bridge.
type Options struct {
	// Bin is the opencode executable (see FindBinary). It is not needed
	// when URL is set.
	Bin string
	// URL, when set, is a running OpenCode server ("http://HOST:PORT") the
	// bridge attaches to instead of starting `opencode serve` itself.
	URL string
	// Username and Password are the HTTP basic auth of the server at URL
	// (OPENCODE_SERVER_USERNAME, default "opencode", and
	// OPENCODE_SERVER_PASSWORD); "" sends none. A server the bridge starts
	// gets a random password of its own.
	Username, Password string
	// Cwd is the directory new OpenCode sessions work in; "" is the host's
	// working directory.
	Cwd string
	// Env is the started server's environment; nil means the host's own.
	// Variables named LOOKOUT_* are never passed on.
	Env []string
	// InterruptGrace is how long an interrupted turn may take to end after
	// the abort request; 0 means 5 s.
	InterruptGrace time.Duration
	// StartTimeout bounds starting `opencode serve` until it listens and
	// its event stream is open; 0 means 2 minutes.
	StartTimeout time.Duration
	// Logger receives the bridge's diagnostics; nil discards them.
	Logger *slog.Logger
}

// EnvBinary is the environment variable naming the opencode executable
// when no --opencode-bin is given.
const EnvBinary = "LOOKOUT_OPENCODE_BIN"

// MinVersion is the oldest OpenCode whose server API the bridge speaks.
const MinVersion = "1.18.33"

// InstallHint says how to get an OpenCode the bridge can use.
const InstallHint = "install it with `npm install -g opencode-ai@" + MinVersion + "` (or newer), or name the binary with --opencode-bin or $" + EnvBinary

// ErrNotFound is wrapped by FindBinary's error when no opencode
// executable exists. It is child.ErrNotFound, the same for every bridge.
var ErrNotFound = child.ErrNotFound

// program is the opencode executable as FindBinary and CheckVersion check
// it: `opencode --version` says "1.18.33".
var program = child.Program{
	Name:        "opencode",
	Called:      "the opencode CLI",
	Title:       "an OpenCode",
	EnvVar:      EnvBinary,
	MinVersion:  MinVersion,
	InstallHint: InstallHint,
}

// FindBinary resolves the opencode executable: flag (when not empty), else
// $LOOKOUT_OPENCODE_BIN, else `opencode` on PATH.
func FindBinary(flag string) (string, error) { return program.Find(flag) }

// CheckVersion runs `opencode --version` and refuses a binary older than
// MinVersion, or one that does not say its version.
func CheckVersion(ctx context.Context, bin string) (string, error) {
	return program.Check(ctx, bin)
}
