package opencode

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

// ErrNotFound is returned by FindBinary when no opencode executable exists.
var ErrNotFound = errors.New("the opencode CLI was not found")

// FindBinary resolves the opencode executable: flag (when not empty), else
// $LOOKOUT_OPENCODE_BIN, else `opencode` on PATH.
func FindBinary(flag string) (string, error) {
	name := flag
	if name == "" {
		name = os.Getenv(EnvBinary)
	}
	if name == "" {
		name = "opencode"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w (%s): %s", ErrNotFound, name, InstallHint)
	}
	return path, nil
}

// CheckVersion runs `opencode --version` and refuses a binary older than
// MinVersion, or one that does not say its version.
func CheckVersion(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version failed: %v; %s", bin, err, InstallHint)
	}
	v := parseVersion(string(out))
	if v == "" {
		return "", fmt.Errorf("%s --version said %q, not an OpenCode version; %s", bin, strings.TrimSpace(string(out)), InstallHint)
	}
	if compareVersions(v, MinVersion) < 0 {
		return v, fmt.Errorf("opencode %s is too old: Lookout needs %s or newer; %s", v, MinVersion, InstallHint)
	}
	return v, nil
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseVersion finds "X.Y.Z" in `opencode --version` output ("1.18.33").
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
