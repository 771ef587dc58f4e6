package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newServeCmd is `lookout serve`: the standalone reference host.
func newServeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run a session host with the demo agent",
		RunE:  func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
