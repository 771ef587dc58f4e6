package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// steerSend is `lookout send --steer`: text into the session's running
// turn, on one short connection.
func steerSend(cmd *cobra.Command, o sync.Options, session, text string) error {
	ctx, cancel := context.WithTimeout(cmdContext(cmd), 30*time.Second)
	defer cancel()
	turn, err := sync.SteerOnce(ctx, o, session, text)
	var ce *sync.CallError
	switch {
	case errors.As(err, &ce) && ce.Code == model.CodeUnknownSession:
		return noSessionErr(session)
	case errors.As(err, &ce) && ce.Code == model.CodeRejected:
		return &exitError{code: exitTurnFailed, err: fmt.Errorf("send --steer: %w", err)}
	case err != nil:
		return classifyListErr(err)
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "steered into turn %s\n", termtext.Line(turn))
	return err
}
