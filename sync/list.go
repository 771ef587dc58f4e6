package sync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lookout-sh/lookout/model"
)

// SessionInfo is one entry of session/list.
type SessionInfo struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	Status    string `json:"status"`
	UpdatedAt string `json:"updatedAt"`
	// Host is the fleet host that runs the session (docs/fleet.md); ""
	// from a host outside a fleet.
	Host string `json:"host,omitempty"`
	// CostUSD is the session's cost as its agent reports it (absent where
	// the agent reports none).
	CostUSD json.RawMessage `json:"costUsd,omitempty"`
	// Needs says why the session waits for its user: "approval",
	// "question" or "failed" (its last turn); "" when nothing waits, or from a host that
	// does not say (docs/protocol.md, "Listing sessions pages").
	Needs string `json:"needs,omitempty"`
	// PendingApprovals counts the approvals waiting for an answer.
	PendingApprovals int `json:"pendingApprovals,omitempty"`
}

// pickSession chooses the session a client without a SessionID follows:
// the one `lookout sessions` and the picker list first (CompareSessions:
// the most recently updated, by time). "" if none.
func pickSession(ss []SessionInfo) string {
	best := -1
	for i, s := range ss {
		if s.SessionID == "" {
			continue
		}
		if best < 0 || CompareSessions(s, ss[best]) < 0 {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return ss[best].SessionID
}

// CallError is the host's error answer to one request of a one-shot call
// (ListSessions, CreateSession).
type CallError struct {
	Method string
	Code   int
	Msg    string
}

func (e *CallError) Error() string { return fmt.Sprintf("%s: %s (%d)", e.Method, e.Msg, e.Code) }

// listPage is one session/list answer. A host that does not page answers
// without hasMore: one page holds everything.
type listPage struct {
	Sessions   []SessionInfo `json:"sessions"`
	HasMore    bool          `json:"hasMore"`
	NextCursor string        `json:"nextCursor"`
}

// listParams are the params of the session/list request after a page
// answered with cursor ("" for the first page).
func listParams(cursor string) map[string]any {
	p := map[string]any{"limit": listLimit}
	if cursor != "" {
		p["cursor"] = cursor
	}
	return p
}

// listLimit is how many sessions a client asks for per session/list page.
const listLimit = 500

// maxListPages bounds how many session/list pages a client reads (a host
// whose cursor never ends must not keep it busy forever): 2,000 pages of
// listLimit is far beyond any host's session bound.
const maxListPages = 2000

// nextListCursor decides, after a page asked for with cursor, whether to
// ask for another and with which cursor: only when the page says more
// follow, names a cursor, and that cursor moved on.
func nextListCursor(cursor string, p listPage, pages int) (string, bool) {
	if !p.HasMore || p.NextCursor == "" || p.NextCursor == cursor || pages > maxListPages {
		return "", false
	}
	return p.NextCursor, true
}

// ListSessions connects once, initializes and returns the host's sessions,
// reading every page of session/list. A URL or token refused before
// dialling is a *CredentialError; a refused handshake or an unreachable
// host is a *ConnectError.
func ListSessions(ctx context.Context, opts Options) ([]SessionInfo, error) {
	out := []SessionInfo{}
	err := oneShot(ctx, opts, func(call callFunc) error {
		cursor := ""
		var budget listBudget
		for pages := 1; ; pages++ {
			res, err := call("session/list", listParams(cursor))
			if err != nil {
				return err
			}
			var p listPage
			if err := json.Unmarshal(res, &p); err != nil {
				return fmt.Errorf("malformed session/list result: %w", err)
			}
			if err := budget.take(len(p.Sessions), len(res)); err != nil {
				out = nil // what was read goes now, not when the caller returns
				return err
			}
			out = append(out, p.Sessions...)
			next, more := nextListCursor(cursor, p, pages)
			if !more {
				return nil
			}
			cursor = next
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreateSession connects once, initializes and creates a session on the
// host (session/create, titled when title is not empty). It returns the
// new session's id.
func CreateSession(ctx context.Context, opts Options, title string) (string, error) {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	err := oneShot(ctx, opts, func(call callFunc) error {
		params := map[string]any{}
		if title != "" {
			params["title"] = title
		}
		res, err := call("session/create", params)
		if err != nil {
			return err
		}
		if json.Unmarshal(res, &r) != nil || r.SessionID == "" {
			return fmt.Errorf("malformed session/create result: %s", res)
		}
		return nil
	})
	return r.SessionID, err
}

// DeleteSession connects once, initializes and deletes a session on the
// host (session/delete): the host stops its turn, if one runs, and
// forgets it. A *CallError says why it could not (-32004: no such
// session; -32010: this host cannot delete sessions).
func DeleteSession(ctx context.Context, opts Options, sessionID string) error {
	return oneShot(ctx, opts, func(call callFunc) error {
		_, err := call("session/delete", map[string]any{"sessionId": sessionID})
		return err
	})
}

// callFunc sends one request and waits for its result.
type callFunc func(method string, params any) (json.RawMessage, error)

// oneShot connects once, initializes without deltas, and runs do with a
// call function on that connection.
func oneShot(ctx context.Context, opts Options, do func(callFunc) error) error {
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
	var id int64
	call := func(method string, params any) (json.RawMessage, error) {
		id++
		ws.Send(encodeRequest(id, method, params))
		for {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-ws.dead:
				return nil, &ConnectError{Msg: "connection lost during " + method}
			case raw := <-ws.frames:
				f, err := model.ParseFrame(raw)
				if err != nil || f.Method != "" || string(f.ID) != fmt.Sprint(id) {
					continue
				}
				if f.Error != nil {
					return nil, &CallError{Method: method, Code: f.Error.Code, Msg: f.Error.Message}
				}
				return f.Result, nil
			}
		}
	}
	if _, err := call("initialize", map[string]any{
		"clientInfo":   map[string]string{"name": opts.ClientName, "version": clientVersion},
		"capabilities": map[string]bool{"deltas": false},
	}); err != nil {
		return err
	}
	return do(call)
}

// ConnectError is a failure to connect: Refused is true for a persistent
// refusal (Status 401/403/404, or an *UnprovenHostError in Err), false for
// an unreachable host.
type ConnectError struct {
	Refused bool
	Status  int
	Msg     string
	// Err is the typed cause, if any (an *UnprovenHostError).
	Err error
}

func (e *ConnectError) Error() string { return e.Msg }

func (e *ConnectError) Unwrap() error { return e.Err }

func asConnectError(err error) error {
	var ce *linkError
	if errors.As(err, &ce) {
		return &ConnectError{Refused: ce.Persistent, Status: ce.Status, Msg: ce.Msg, Err: ce.Err}
	}
	return err
}
