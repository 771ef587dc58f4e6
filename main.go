// Command lookout watches and steers coding-agent sessions from a terminal.
//
// main.go only wires subcommands; each lives in its own cmd_*.go file.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "lookout:", err)
		os.Exit(exitCode(err))
	}
}

func newRootCmd() *cobra.Command {
	root := newAttachRootCmd() // `lookout` with no arguments: the embedded demo
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.AddCommand(newAttachCmd(), newServeCmd(), newAuthCmd())
	root.AddCommand(newClientCmds()...)
	return root
}

// exitError carries a process exit code chosen by a subcommand.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func exitCode(err error) int {
	if e, ok := err.(*exitError); ok {
		return e.code
	}
	return 1
}
