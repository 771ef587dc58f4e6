package fleet

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/lookout-sh/lookout/internal/kvlist"
)

// Entry is a session's line in the fleet directory: enough of its
// session/list entry that a host lists the fleet without folding any
// session it does not serve.
type Entry struct {
	SessionID string    `json:"sessionId"`
	HostID    string    `json:"hostId"`
	HostURL   string    `json:"hostUrl"`
	State     string    `json:"state"` // status as session/list reports it
	UpdatedAt time.Time `json:"updatedAt"`
	Summary
}

// Summary is what the writer of a session publishes of it: its
// session/list fields. The zero Summary is "not published yet".
type Summary struct {
	Title        string `json:"title,omitempty"`
	Epoch        string `json:"epoch,omitempty"`
	CreatedAt    string `json:"createdAt,omitempty"`
	Head         int64  `json:"head,omitempty"`
	QueuedTurns  int    `json:"queuedTurns,omitempty"`
	LastActivity string `json:"lastActivity,omitempty"` // RFC 3339
	// Needs and PendingApprovals: what waits for the session's user
	// (the host's session/list fields of the same names).
	Needs            string `json:"needs,omitempty"`
	PendingApprovals int    `json:"pendingApprovals,omitempty"`
}

// Register records that this host runs session sid, in state.
func (m *Member) Register(ctx context.Context, sid, state string) error {
	return m.Publish(ctx, sid, state, Summary{})
}

// Publish records that this host runs session sid, in state, as sum.
func (m *Member) Publish(ctx context.Context, sid, state string, sum Summary) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	b, err := json.Marshal(Entry{SessionID: sid, HostID: m.cfg.HostID, HostURL: m.cfg.HostURL, State: state, UpdatedAt: time.Now().UTC(), Summary: sum})
	if err != nil {
		return err
	}
	return retrying(ctx, func(ctx context.Context) error {
		_, err := m.directory.Put(ctx, key(sid), b)
		return err
	})
}

// Sessions lists the whole fleet's sessions, by session id.
func (m *Member) Sessions(ctx context.Context) ([]Entry, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	es, err := kvlist.Entries(ctx, m.directory, ">")
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(es))
	for _, e := range es {
		var en Entry
		if err := json.Unmarshal(e.Value(), &en); err != nil {
			return nil, fmt.Errorf("fleet: directory entry %s: %w", e.Key(), err)
		}
		out = append(out, en)
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out, nil
}

// Lookup returns session sid's directory entry.
func (m *Member) Lookup(ctx context.Context, sid string) (Entry, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var en Entry
	var raw []byte
	err := retrying(ctx, func(ctx context.Context) error {
		e, err := m.directory.Get(ctx, key(sid))
		if err == nil {
			raw = e.Value()
		}
		return err
	})
	if err != nil {
		return en, fmt.Errorf("fleet: session %s: %w", sid, err)
	}
	err = json.Unmarshal(raw, &en)
	return en, err
}

// key is a session id as a key or subject token: itself when plain, else
// "=" and its base64url (as the journal's subjects).
func key(sid string) string {
	if nameRE.MatchString(sid) {
		return sid
	}
	return "=" + base64.RawURLEncoding.EncodeToString([]byte(sid))
}

// sessionOfKey inverts key.
func sessionOfKey(k string) (string, error) {
	if len(k) == 0 || k[0] != '=' {
		return k, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(k[1:])
	return string(b), err
}
