package sync

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/model"
)

// Steering: text the user sends into the running turn (turn/steer). It is
// never lost: a steer the host refuses (no turn runs any more, the agent
// cannot take it) becomes an ordinary prompt with the same commandId,
// queued behind the turn as the composer's enter would have; one sent
// while offline waits for the next connection, and one in flight when a
// connection drops is sent again (the host steers a commandId once).

type steerState struct {
	text     string
	inflight bool
}

// Steer sends text into the session's running turn and returns its
// commandId at once. The steered text shows in the transcript as a
// userMessage of the turn; when it cannot be steered, it is submitted as
// a prompt instead and Picture.Errors says why.
func (c *Client) Steer(text string) (commandID string) {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	commandID = id.String()
	c.enqueue(func() { c.loop.steerText(commandID, text) })
	return commandID
}

func (l *loopState) steerText(cid, text string) {
	if !l.steer && l.everConn {
		l.addError("not steered: this agent takes no input into a running turn; sent as the next prompt")
		l.submit(cid, text, "")
		return
	}
	s := &steerState{text: text}
	l.steers[cid] = s
	l.dirty = true
	if l.ready() {
		l.sendSteer(cid, s)
	}
}

func (l *loopState) sendSteer(cid string, s *steerState) {
	s.inflight = true
	l.call("turn/steer", map[string]any{"sessionId": l.sessionID, "commandId": cid, "text": s.text},
		func(_ json.RawMessage, rerr *model.RPCError) {
			s.inflight = false
			if l.steers[cid] != s {
				return
			}
			delete(l.steers, cid)
			l.dirty = true
			if rerr == nil {
				return
			}
			if rerr.Code == model.CodeRejected && steerReason(rerr) == "noActiveTurn" {
				l.submit(cid, s.text, "") // the turn ended first: the text is the next prompt
				return
			}
			l.addError("not steered: " + rerr.Message + "; sent as the next prompt")
			l.submit(cid, s.text, "")
		})
}

// steerReason is data.reason of a turn/steer refusal.
func steerReason(e *model.RPCError) string {
	var d struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(e.Data, &d)
	return d.Reason
}

// reconcileSteers runs once a new connection has caught up: every steer
// not answered yet is sent (again), in commandId order (UUIDv7: the order
// they were made).
func (l *loopState) reconcileSteers() {
	ids := make([]string, 0, len(l.steers))
	for id := range l.steers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		l.sendSteer(id, l.steers[id])
	}
}

// SteerOnce sends text into a session's running turn on one short
// connection (turn/steer, with a fresh commandId) and returns the id of
// the turn it landed in. The host's refusal is a *CallError: -32010 with
// data.reason noActiveTurn (no turn runs), steerNotSupported (its agent
// takes no input mid-turn) or steerRefused.
func SteerOnce(ctx context.Context, opts Options, sessionID, text string) (string, error) {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	var turnID string
	err = oneShot(ctx, opts, func(call callFunc) error {
		raw, err := call("turn/steer", map[string]any{"sessionId": sessionID, "commandId": id.String(), "text": text})
		if err != nil {
			return err
		}
		var res struct {
			TurnID string `json:"turnId"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return err
		}
		turnID = res.TurnID
		return nil
	})
	return turnID, err
}
