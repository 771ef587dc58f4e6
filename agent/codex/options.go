package codex

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

// ErrNotFound is returned by FindBinary when no codex executable exists.
var ErrNotFound = errors.New("the codex CLI was not found")

// FindBinary resolves the codex executable: flag (when not empty), else
// $LOOKOUT_CODEX_BIN, else `codex` on PATH.
func FindBinary(flag string) (string, error) {
	name := flag
	if name == "" {
		name = os.Getenv(EnvBinary)
	}
	if name == "" {
		name = "codex"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w (%s): %s", ErrNotFound, name, InstallHint)
	}
	return path, nil
}

// CheckVersion runs `codex --version` and refuses a binary older than
// MinVersion, or one that does not say its version.
func CheckVersion(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version failed: %v; %s", bin, err, InstallHint)
	}
	v := parseVersion(string(out))
	if v == "" {
		return "", fmt.Errorf("%s --version said %q, not a Codex CLI version; %s", bin, strings.TrimSpace(string(out)), InstallHint)
	}
	if compareVersions(v, MinVersion) < 0 {
		return v, fmt.Errorf("codex %s is too old: Lookout needs %s or newer; %s", v, MinVersion, InstallHint)
	}
	return v, nil
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseVersion finds "X.Y.Z" in `codex --version` output ("codex-cli 0.169.0").
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
