// Package cli is the lookout command line: the cobra command tree, its
// flags and what each subcommand does (attach, serve, auth, and the
// non-interactive watch, export, send and sessions). Package main only
// calls Main.
package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/termtext"
)

// Main runs the command line in os.Args and returns the process exit code
// (see the exit codes in exit.go).
func Main() int {
	stop := startProfile()
	err := newRootCmd().Execute()
	stop()
	if err != nil {
		printError(os.Stderr, err)
		return exitCode(err)
	}
	return exitOK
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
