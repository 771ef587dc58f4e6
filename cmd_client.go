package main

import "github.com/spf13/cobra"

// newClientCmds returns the non-interactive commands: watch, export, send,
// sessions.
func newClientCmds() []*cobra.Command { return nil }
