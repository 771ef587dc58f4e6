package fleet

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Entry is a session's line in the fleet directory.
type Entry struct {
	SessionID string    `json:"sessionId"`
	HostID    string    `json:"hostId"`
	HostURL   string    `json:"hostUrl"`
	State     string    `json:"state"` // as session/list reports it
	UpdatedAt time.Time `json:"updatedAt"`
}

// Register records that this host runs session sid, in state.
func (m *Member) Register(ctx context.Context, sid, state string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	b, err := json.Marshal(Entry{SessionID: sid, HostID: m.cfg.HostID, HostURL: m.cfg.HostURL, State: state, UpdatedAt: time.Now().UTC()})
	if err != nil {
		return err
	}
	_, err = m.directory.Put(ctx, key(sid), b)
	return err
}

// Sessions lists the whole fleet's sessions, by session id.
func (m *Member) Sessions(ctx context.Context) ([]Entry, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	w, err := m.directory.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer func() { _ = w.Stop() }() // a listing that ended needs no watcher
	var out []Entry
	for e := range w.Updates() {
		if e == nil {
			break
		}
		var en Entry
		if err := json.Unmarshal(e.Value(), &en); err != nil {
			return nil, fmt.Errorf("fleet: directory entry %s: %w", e.Key(), err)
		}
		out = append(out, en)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.SessionID, b.SessionID) })
	return out, nil
}

// Lookup returns session sid's directory entry.
func (m *Member) Lookup(ctx context.Context, sid string) (Entry, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var en Entry
	e, err := m.directory.Get(ctx, key(sid))
	if err != nil {
		return en, fmt.Errorf("fleet: session %s: %w", sid, err)
	}
	err = json.Unmarshal(e.Value(), &en)
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
