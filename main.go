// Command lookout watches and steers coding-agent sessions from a terminal.
//
// main.go only wires subcommands; each lives in its own cmd_*.go file.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/termtext"
)

func main() {
	stop := startProfile()
	err := newRootCmd().Execute()
	stop()
	if err != nil {
		printError(os.Stderr, err)
		os.Exit(exitCode(err))
	}
}

// printError reports the error a command ended with. Its text may quote
// the host (a turn's error, a rejection's detail, a sync error), so it is
// cleaned with termtext.Text.
func printError(w io.Writer, err error) {
	fmt.Fprintln(w, "lookout:", termtext.Text(err.Error()))
}

func newRootCmd() *cobra.Command {
	root := newAttachRootCmd() // `lookout` with no arguments: the embedded demo
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.AddCommand(newAttachCmd(), newServeCmd(), newAuthCmd())
	root.AddCommand(newClientCmds()...)
	usageEverywhere(root)
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
