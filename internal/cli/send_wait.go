package cli

import (
	"fmt"

	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// sendWait is what a send waits for, as far as its user can act on it.
type sendWait struct {
	fresh  sync.FreshState
	err    string // why the link is down, when it is
	queued int    // turns ahead of the prompt, when it is queued
	ahead  string // the running turn it waits behind
}

// sendWaitOf reads what the prompt with commandId cid waits for from
// the client's picture. Approvals are told apart (send names each one).
func sendWaitOf(s sync.Picture, cid string) sendWait {
	w := sendWait{fresh: s.Freshness.State, err: s.Freshness.Err}
	if s.View == nil {
		return w
	}
	for i, q := range s.View.QueuedTurns {
		if q.CommandID == cid {
			w.queued = i + 1
			if a := s.View.ActiveTurn; a != nil {
				w.ahead = a.TurnID
			}
			break
		}
	}
	return w
}

// sendWaitNotice is the line send writes when what it waits for changed
// from prev to cur ("" when there is nothing new to say): a send never
// waits in silence. It says what the prompt waits for and how to unblock
// it; the prompt itself is kept and sent, whatever the wait.
func sendWaitNotice(prev, cur sendWait) string {
	switch {
	case cur.fresh == sync.Reconnecting && prev.fresh != sync.Reconnecting:
		why := ""
		if cur.err != "" {
			why = ": " + termtext.Line(cur.err)
		}
		return "lookout: the host is unreachable" + why + "; reconnecting, the prompt is kept and sent once it is back (ctrl+c gives up)"
	case cur.fresh == sync.Updating && prev.fresh == sync.Reconnecting:
		return "lookout: reconnected; catching up"
	case cur.queued > 0 && (cur.queued != prev.queued || cur.ahead != prev.ahead):
		behind := "the running turn"
		if cur.ahead != "" {
			behind = "turn " + termtext.Line(cur.ahead)
		}
		turns := "turn"
		if cur.queued > 1 {
			turns = "turns"
		}
		return fmt.Sprintf("lookout: the prompt is queued: %d %s ahead of it, behind %s; it runs when they end (interrupt them in lookout attach)", cur.queued, turns, behind)
	}
	return ""
}
