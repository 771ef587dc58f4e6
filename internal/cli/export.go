package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/sync"
)

func newExportCmd() *cobra.Command {
	var f clientFlags
	var format string
	var untilIdle bool
	cmd := &cobra.Command{
		Use:   "export [URL]",
		Short: "Print a session's folded transcript",
		Long: `Fold a session's whole durable history and print the result once caught up.

--format json prints the canonical state encoding: one object whose "items"
array holds the item objects in transcript order, with the active turn,
queued turns, pending approvals, session state values and cursors.
--format markdown prints a readable transcript.
With --until-idle it waits until the session also has no active or queued
turn before printing.

` + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "markdown" && format != "md" {
				return usageErr(fmt.Errorf("--format must be json or markdown, not %q", format))
			}
			if format == "md" {
				format = "markdown"
			}
			o := f.options(args)
			x, err := newExportStream(o.SessionID, format)
			if err != nil {
				return err
			}
			defer x.close()
			// The client replays the whole history into x, which holds
			// only what may still change; the client itself keeps little.
			o.Replay, o.OnEvent = true, x.fold
			o.PageLimit = exportPageLimit
			o.MaxItems, o.MaxBytes = exportClientItems, exportClientBytes
			return follow(cmd.Context(), o, cmd.ErrOrStderr(), nil, func(s sync.Picture, _ *sync.Client) (bool, error) {
				if s.Freshness.State != sync.Live || (untilIdle && !isIdle(s)) {
					return false, nil
				}
				return true, x.finish(cmd.OutOrStdout())
			})
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&format, "format", "json", "json or markdown")
	cmd.Flags().BoolVar(&untilIdle, "until-idle", false, "wait until the session has no active or queued turn")
	return cmd
}

// What export asks of its client: big pages (the protocol's most), and a
// small fold of its own, since the export folds the session itself
// (exportStream) and the client's fold serves only to follow it.
const (
	exportPageLimit   = 1000
	exportClientItems = 256
	exportClientBytes = 16 << 20
)
