package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
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
			o := f.options(args)
			o.Replay = true
			var out []byte
			err := follow(cmd.Context(), o, cmd.ErrOrStderr(), nil, func(s sync.Snapshot, c *sync.Client) (bool, error) {
				if s.Freshness.State != sync.Live || (untilIdle && !isIdle(s)) {
					return false, nil
				}
				ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
				defer cancel()
				var dropped int
				if err := c.Inspect(ctx, func(st *model.State) {
					if dropped = st.Dropped(); dropped > 0 {
						return
					}
					if format == "json" {
						out = append(termtext.JSON(st.Encode()), '\n')
					} else {
						out = []byte(render.MarkdownTranscript(st.View()))
					}
				}); err != nil {
					return true, err
				}
				if dropped > 0 {
					return true, fmt.Errorf("the session holds more than this client keeps in memory (%d items, %d MiB): %d of its oldest items were dropped, so the export would be incomplete", sync.DefaultMaxItems, sync.DefaultMaxBytes>>20, dropped)
				}
				return true, nil
			})
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&format, "format", "json", "json or markdown")
	cmd.Flags().BoolVar(&untilIdle, "until-idle", false, "wait until the session has no active or queued turn")
	return cmd
}
