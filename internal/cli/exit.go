package cli

import "errors"

// Exit codes of the non-interactive commands (documented in docs/sync.md).
const (
	exitOK          = 0
	exitFailure     = 1 // anything not listed below
	exitUsage       = 2 // bad arguments or flags
	exitAuth        = 3 // the host refused the token (401) or the origin (403), or the local host's address holds no host that proves it is one
	exitNoSession   = 4 // the host does not know the session (or has none)
	exitUnreachable = 5 // cannot connect, connection lost for good, or gave up sending
	exitTurnFailed  = 6 // the prompt was rejected, unqueued, or its turn failed or was stopped
	exitTimeout     = 7 // wait: its --timeout passed before the state came
)

// exitError carries a process exit code chosen by a subcommand.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode is the process exit code for the error a command ended with:
// the code an *exitError carries, else exitFailure.
func exitCode(err error) int {
	if e := (*exitError)(nil); errors.As(err, &e) {
		return e.code
	}
	return exitFailure
}

// usageErr marks err as a usage error (exit 2).
func usageErr(err error) error { return &exitError{code: exitUsage, err: err} }
