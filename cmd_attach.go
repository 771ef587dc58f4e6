package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newAttachRootCmd is `lookout` itself: with no arguments it starts the
// embedded host with the demo agent and attaches to it.
func newAttachRootCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "lookout",
		Short: "Watch and steer coding-agent sessions from a terminal",
		RunE:  func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}

// newAttachCmd is `lookout attach URL [--session ID]`.
func newAttachCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "attach URL",
		Short: "Attach to a session host",
		RunE:  func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
