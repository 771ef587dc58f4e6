package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

func newSessionsCmd() *cobra.Command {
	var f clientFlags
	var asJSON, watch bool
	cmd := &cobra.Command{
		Use:   "sessions [URL]",
		Short: "List the host's sessions",
		Long: "List the sessions a host holds, most recently updated first (the picker's order): id, status,\n" +
			"last update (\"5 min ago\", \"yesterday 09:12\"; --json has the host's RFC 3339 time) and title.\n\n" +
			"With --watch it keeps going: the list, then one line per change (ID, state, title; \"ID gone\" for a\n" +
			"session deleted), or with --json one JSON object per change ({sessions, removed, initial}), until\n" +
			"interrupted. A lost connection is said on stderr and watched again.\n\n" + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if watch {
				return watchSessions(cmdContext(cmd), f.options(args), cmd.OutOrStdout(), cmd.ErrOrStderr(), asJSON)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), 30*time.Second)
			defer cancel()
			ss, err := sync.ListSessions(ctx, f.options(args))
			if err != nil {
				return classifyListErr(err)
			}
			w := cmd.OutOrStdout()
			sync.SortSessions(ss) // newest first, as the picker lists them
			if asJSON {
				b, _ := json.Marshal(ss)
				_, err := fmt.Fprintf(w, "%s\n", termtext.JSON(b))
				return err
			}
			_, err = fmt.Fprint(w, sessionsTable(ss, time.Now()))
			return err
		},
	}
	f.add(cmd, false)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	cmd.Flags().BoolVar(&watch, "watch", false, "keep watching: print each change as it happens (until interrupted)")
	return cmd
}

func classifyListErr(err error) error {
	var cr *sync.CredentialError
	if errors.As(err, &cr) {
		return usageErr(err)
	}
	var ce *sync.ConnectError
	var up *sync.UnprovenHostError
	if errors.As(err, &ce) {
		if ce.Refused && (ce.Status == 401 || ce.Status == 403 || errors.As(err, &up)) {
			return &exitError{code: exitAuth, err: err}
		}
		return &exitError{code: exitUnreachable, err: err}
	}
	return err
}
