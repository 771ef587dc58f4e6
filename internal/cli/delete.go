package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// errNotConfirmed ends `lookout delete` when the user did not say yes.
var errNotConfirmed = errors.New("not deleted: the deletion was not confirmed (answer y, or pass --yes)")

func newDeleteCmd() *cobra.Command {
	var f clientFlags
	var yes bool
	cmd := &cobra.Command{
		Use:   "delete [URL] --session ID [--yes]",
		Short: "Delete a session and its history",
		Long: "Delete a session from a host, with its whole history, for good. It asks first (y to\n" +
			"delete) unless --yes. A turn still running is stopped and the agent's process for the\n" +
			"session ends. Exit 4 when the host has no such session.\n\n" + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.session == "" {
				return usageErr(errors.New("delete needs --session ID (lookout sessions lists them)"))
			}
			ctx, cancel := context.WithTimeout(cmdContext(cmd), 30*time.Second)
			defer cancel()
			opts := f.options(args)
			if !yes {
				ss, err := sync.ListSessions(ctx, opts)
				if err != nil {
					return classifyListErr(err)
				}
				s, ok := findSession(ss, f.session)
				if !ok {
					return noSessionErr(f.session)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Delete session %s (%s)? Its history goes for good. [y/N] ", termtext.Line(s.SessionID), describeSession(s))
				if !confirmed(cmd.InOrStdin()) {
					return errNotConfirmed
				}
			}
			err := sync.DeleteSession(ctx, opts, f.session)
			var ce *sync.CallError
			if errors.As(err, &ce) && ce.Code == model.CodeUnknownSession {
				return noSessionErr(f.session)
			}
			if err != nil {
				return classifyListErr(fmt.Errorf("delete the session: %w", err))
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "deleted session %s\n", termtext.Line(f.session))
			return err
		},
	}
	f.add(cmd, false)
	cmd.Flags().StringVar(&f.session, "session", "", "the session to delete (required)")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return cmd
}

// findSession finds a session of a listing by id.
func findSession(ss []sync.SessionInfo, id string) (sync.SessionInfo, bool) {
	for _, s := range ss {
		if s.SessionID == id {
			return s, true
		}
	}
	return sync.SessionInfo{}, false
}

// describeSession is a session's title and status for the question, one
// clean line.
func describeSession(s sync.SessionInfo) string {
	title := termtext.Line(s.Title)
	if title == "" {
		title = "untitled"
	}
	if s.Status != "" {
		return "\u201c" + title + "\u201d, " + termtext.Line(s.Status)
	}
	return "\u201c" + title + "\u201d"
}

// confirmed reads one answer line: true for y or yes (any case).
func confirmed(r io.Reader) bool {
	line, _ := bufio.NewReader(r).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// noSessionErr is exit 4: the host does not know the session.
func noSessionErr(id string) error {
	return &exitError{code: exitNoSession, err: fmt.Errorf("the host has no session %s", termtext.Line(id))}
}
