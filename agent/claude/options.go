package claude

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
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

// ErrNotFound is returned by FindBinary when no claude executable exists.
var ErrNotFound = errors.New("the claude CLI (Claude Code) was not found")

// FindBinary resolves the claude executable: flag (when not empty), else
// $LOOKOUT_CLAUDE_BIN, else `claude` on PATH.
func FindBinary(flag string) (string, error) {
	name := flag
	if name == "" {
		name = os.Getenv(EnvBinary)
	}
	if name == "" {
		name = "claude"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w (%s): %s", ErrNotFound, name, InstallHint)
	}
	return path, nil
}

// CheckVersion runs `claude --version` ("2.1.332 (Claude Code)") and
// refuses a binary older than MinVersion, or one that does not say it is
// Claude Code.
func CheckVersion(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version failed: %v; %s", bin, err, InstallHint)
	}
	v := parseVersion(string(out))
	if v == "" || !strings.Contains(string(out), "Claude Code") {
		return "", fmt.Errorf("%s --version said %q, not a Claude Code version; %s", bin, strings.TrimSpace(string(out)), InstallHint)
	}
	if compareVersions(v, MinVersion) < 0 {
		return v, fmt.Errorf("claude %s is too old: Lookout needs %s or newer; %s", v, MinVersion, InstallHint)
	}
	return v, nil
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseVersion finds "X.Y.Z" in `claude --version` output.
func parseVersion(out string) string {
	return versionRE.FindString(out)
}

// compareVersions compares two "X.Y.Z" versions numerically.
func compareVersions(a, b string) int {
	pa, pb := versionRE.FindStringSubmatch(a), versionRE.FindStringSubmatch(b)
	for i := 1; i <= 3; i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
