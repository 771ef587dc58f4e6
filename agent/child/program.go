package child

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Program describes an agent's executable the way a bridge checks it
// before any host starts: where to find it, which versions the bridge
// speaks to, and what to tell a user who has none. Its fields name the
// program in the errors of Find and Check.
type Program struct {
	// Name is the executable looked up on PATH when neither a flag nor
	// EnvVar names one, and the program's name in messages ("codex").
	Name string
	// Called is what Find's error says was not found ("the codex CLI").
	Called string
	// Title is what Check's error says the program should be, with its
	// article ("a Codex CLI": "... is not a Codex CLI version").
	Title string
	// Marker, when set, is a text --version must print besides the
	// version for the program to count as this agent's ("Claude Code").
	Marker string
	// EnvVar names the executable when no flag does ("LOOKOUT_CODEX_BIN").
	EnvVar string
	// MinVersion is the oldest version the bridge speaks to ("0.169.0").
	MinVersion string
	// InstallHint ends every error: how to get a program that will do.
	InstallHint string
}

// ErrNotFound is wrapped by Find's error when the executable does not
// exist.
var ErrNotFound = errors.New("agent program not found")

// notFound is Find's error: the program's own words, and ErrNotFound.
type notFound struct{ msg string }

func (e *notFound) Error() string { return e.msg }
func (e *notFound) Unwrap() error { return ErrNotFound }

// Find resolves the executable: flag (when not empty), else $EnvVar, else
// Name on PATH. A missing one is an error wrapping ErrNotFound that says
// what was looked for and how to install it.
func (p Program) Find(flag string) (string, error) {
	name := flag
	if name == "" {
		name = os.Getenv(p.EnvVar)
	}
	if name == "" {
		name = p.Name
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", &notFound{msg: fmt.Sprintf("%s was not found (%s): %s", p.Called, name, p.InstallHint)}
	}
	return path, nil
}

// versionTimeout bounds `--version`.
const versionTimeout = 20 * time.Second

// Check runs `bin --version` and returns the version it says. It refuses
// a binary that fails to run, does not say a version (or lacks Marker), or
// is older than MinVersion; the error says which, and how to install one
// that will do.
func (p Program) Check(ctx context.Context, bin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version failed: %w; %s", bin, err, p.InstallHint)
	}
	v := ParseVersion(string(out))
	if v == "" || !strings.Contains(string(out), p.Marker) {
		return "", fmt.Errorf("%s --version said %q, not %s version; %s", bin, strings.TrimSpace(string(out)), p.Title, p.InstallHint)
	}
	if !AtLeast(v, p.MinVersion) {
		return v, fmt.Errorf("%s %s is too old: Lookout needs %s or newer; %s", p.Name, v, p.MinVersion, p.InstallHint)
	}
	return v, nil
}
