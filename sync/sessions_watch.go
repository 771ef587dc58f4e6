package sync

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/lookout-sh/lookout/model"
)

// SessionsChange is one sessions/changed notification of a host's summary
// stream (docs/protocol.md, "Watching every session"): entries that
// changed (the whole list when Initial), and sessions gone.
type SessionsChange struct {
	Sessions []SessionInfo `json:"sessions"`
	Removed  []string      `json:"removed,omitempty"`
	// Initial marks the whole list a new watcher is told first; More that
	// the rest of it follows in the next notification.
	Initial bool `json:"initial,omitempty"`
	More    bool `json:"more,omitempty"`
}

// ErrNoSessionsWatch is WatchSessions' error for a host without the
// summary stream (initialize's features.sessionsWatch).
var ErrNoSessionsWatch = errors.New("the host has no summary stream (features.sessionsWatch); it predates it")

// WatchSessions follows a host's summary stream on one connection and
// calls fn with each change, the whole list first, until ctx ends, fn
// returns an error, or the connection is lost (a *ConnectError: watch
// again, and the whole list comes again).
func WatchSessions(ctx context.Context, opts Options, fn func(SessionsChange) error) error {
	opts = opts.withDefaults()
	cred, err := opts.Credential()
	if err != nil {
		return err
	}
	tlsConf, err := opts.tlsConfig()
	if err != nil {
		return err
	}
	ws, err := dialWS(ctx, cred, tlsConf, deadAfter)
	if err != nil {
		return asConnectError(err)
	}
	defer ws.Close()
	ws.Send(encodeRequest(1, "initialize", map[string]any{
		"clientInfo":   map[string]string{"name": opts.ClientName, "version": clientVersion},
		"capabilities": map[string]bool{"deltas": false},
	}))
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ws.dead:
			return &ConnectError{Msg: "connection lost while watching sessions"}
		case raw := <-ws.frames:
			f, err := model.ParseFrame(raw)
			if err != nil {
				continue
			}
			switch {
			case string(f.ID) == "1":
				if f.Error != nil {
					return &CallError{Method: "initialize", Code: f.Error.Code, Msg: f.Error.Message}
				}
				var r struct {
					Features struct {
						SessionsWatch bool `json:"sessionsWatch"`
					} `json:"features"`
				}
				if json.Unmarshal(f.Result, &r) != nil || !r.Features.SessionsWatch {
					return ErrNoSessionsWatch
				}
				ws.Send(encodeRequest(2, "sessions/watch", map[string]any{}))
			case string(f.ID) == "2" && f.Error != nil:
				return &CallError{Method: "sessions/watch", Code: f.Error.Code, Msg: f.Error.Message}
			case f.Method == "sessions/changed":
				var c SessionsChange
				if json.Unmarshal(f.Params, &c) != nil {
					continue
				}
				if err := fn(c); err != nil {
					return err
				}
			}
		}
	}
}
