package host

import (
	"encoding/json"
	"errors"

	"github.com/lookout-sh/lookout/model"
)

// initialize answers initialize: the host's identity, durability and
// bounds; it records whether the client takes deltas, and coalesced ones.
func (c *conn) initialize(params json.RawMessage) (any, *rpcError) {
	var p struct {
		ClientInfo *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"clientInfo"`
		Capabilities *struct {
			Deltas         *bool `json:"deltas"`
			CoalesceDeltas *bool `json:"coalesceDeltas"`
		} `json:"capabilities"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	if p.Capabilities != nil && p.Capabilities.Deltas != nil {
		c.deltas.Store(*p.Capabilities.Deltas)
	}
	if p.Capabilities != nil && p.Capabilities.CoalesceDeltas != nil {
		c.coalesce.Store(*p.Capabilities.CoalesceDeltas)
	}
	return map[string]any{
		"serverInfo":      map[string]string{"name": "lookout-host", "version": Version},
		"protocolVersion": 1,
		"durability":      c.h.Durability(),
		"features": map[string]any{
			"agent":          agentName(c.h),
			"deltas":         c.deltas.Load(),
			"coalesceDeltas": c.coalesce.Load(),
			"fieldBound":     c.h.bounds().sliced,
			"textBound":      c.h.bounds().text,
			"maxFrameBytes":  MaxFrameBytes,
			"pageBytes":      PageBytes,
			"maxPageLimit":   MaxPageLimit,
			"maxQueuedTurns": MaxQueuedTurns,
			"commandReplay":  true,
			"approvals":      true,
			"denyReason":     true,
			"sessionFocus":   true,
			"agentCommands":  true,
			"questions":      true,
			"steer":          steers(c.h.agent),
			"sessionsWatch":  true,
		},
	}, nil
}

func agentName(h *Host) string {
	switch {
	case h.opts.AgentImpl == nil:
		return "demo"
	case h.opts.Agent != "":
		return h.opts.Agent
	}
	return "custom"
}

func (c *conn) listSessions(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Limit  *int    `json:"limit"`
		Cursor *string `json:"cursor"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	limit := DefaultListLimit
	if p.Limit != nil {
		if *p.Limit < 1 {
			return nil, errInvalidParams("invalid params: limit must be at least 1")
		}
		limit = min(*p.Limit, MaxPageLimit)
	}
	after := ""
	if p.Cursor != nil && *p.Cursor != "" {
		var ok bool
		if after, ok = parseListCursor(*p.Cursor); !ok {
			return nil, errInvalidParams("invalid params: cursor is not a session/list cursor of this host")
		}
	}
	var l listing
	var start int
	if f := c.h.fleet(); f != nil {
		var err error
		if l, start, err = c.h.fleetListing(f, after, limit); err != nil {
			return nil, errJournalUnavailable(err)
		}
	} else {
		l = sessionListing(c.h.sessionList())
		start = indexAfter(l, after)
	}
	if start < 0 {
		return nil, errInvalidParams("invalid params: cursor is not a session/list cursor of this host")
	}
	return listPage(l, start, limit, PageBytes), nil
}

func (c *conn) createSession(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Title *string `json:"title"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e
	}
	title := ""
	if p.Title != nil {
		title = *p.Title
	}
	s, err := c.h.createSession(title)
	if errors.Is(err, ErrTooManySessions) {
		return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: " + err.Error(), Data: map[string]string{"reason": reasonTooManySessions}}
	}
	if err != nil {
		return nil, &rpcError{Code: model.CodeBackpressured, Message: "backpressured: " + err.Error()}
	}
	return map[string]any{"sessionId": s.id}, nil
}
