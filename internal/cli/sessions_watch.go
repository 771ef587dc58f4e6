package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/tui"
)

// watchSessions is `lookout sessions --watch`: the whole list, then a
// line per change, until interrupted. A lost connection is said on
// stderr and watched again (the whole list comes again).
func watchSessions(ctx context.Context, o sync.Options, out, errOut io.Writer, asJSON bool) error {
	for {
		var initial []sync.SessionInfo
		err := sync.WatchSessions(ctx, o, func(c sync.SessionsChange) error {
			if asJSON {
				b, _ := json.Marshal(c)
				_, err := fmt.Fprintf(out, "%s\n", termtext.JSON(b))
				return err
			}
			if c.Initial {
				initial = append(initial, c.Sessions...)
				if c.More {
					return nil
				}
				sync.SortSessions(initial)
				_, err := fmt.Fprint(out, sessionsTable(initial, time.Now()))
				initial = nil
				return err
			}
			for _, line := range changeLines(c) {
				if _, err := fmt.Fprintln(out, line); err != nil {
					return err
				}
			}
			return nil
		})
		var ce *sync.ConnectError
		if ctx.Err() != nil {
			return nil // interrupted: the watch is over
		}
		if !errors.As(err, &ce) || ce.Refused {
			return classifyListErr(err)
		}
		fmt.Fprintf(errOut, "lookout: %s; watching again\n", termtext.Line(err.Error()))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

// changeLines are a change's lines: "ID<tab>STATE<tab>TITLE" per changed
// session, "ID<tab>gone" per removed one. Every field is one clean line.
func changeLines(c sync.SessionsChange) []string {
	var out []string
	for _, s := range c.Sessions {
		out = append(out, termtext.Line(s.SessionID)+"\t"+tui.SessionState(s)+"\t"+termtext.Line(s.Title))
	}
	for _, id := range c.Removed {
		out = append(out, termtext.Line(id)+"\tgone")
	}
	return out
}
