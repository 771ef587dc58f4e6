package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// A Lease makes its holder the one host that writes a session. It lives
// in the writers bucket under the session's key, naming the host and its
// incarnation; it holds while that incarnation is live (liveness.go), so
// it needs no renewal of its own. Every change is a compare-and-set on
// the key's revision, so of hosts racing for a session exactly one wins.
// A lease decides who may claim a session's journal; the journal's own
// fencing (docs/fleet.md, "One writer") decides whose commits count.
type Lease struct {
	SessionID string
	HostID    string
	revision  uint64
}

// writerRecord is a session's value in the writers bucket.
type writerRecord struct {
	Host        string `json:"host"`
	Incarnation string `json:"incarnation"`
}

var (
	// ErrHeld: another live host holds the session's lease.
	ErrHeld = errors.New("fleet: another host holds the session's writer lease")
	// ErrLost: another host took the lease since, or it was released.
	ErrLost = errors.New("fleet: the writer lease was lost")
)

// Acquire takes session sid's lease for this host: it creates it when no
// host ever held one, takes it over when its holder's incarnation is no
// longer live, and returns it when this incarnation holds it already.
// Another live host's lease is ErrHeld.
func (m *Member) Acquire(ctx context.Context, sid string) (*Lease, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var l *Lease
	err := retrying(ctx, func(ctx context.Context) (err error) {
		l, err = m.acquire(ctx, sid)
		return err
	})
	return l, err
}

// acquire is one attempt of Acquire. An attempt whose write was stored
// but not answered finds this incarnation's lease in the next one.
func (m *Member) acquire(ctx context.Context, sid string) (*Lease, error) {
	k := key(sid)
	inc := m.Incarnation()
	mine, err := json.Marshal(writerRecord{Host: m.cfg.HostID, Incarnation: inc})
	if err != nil {
		return nil, err
	}
	e, err := m.writers.Get(ctx, k)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		// Create also replaces the delete marker a release left.
		rev, err := m.writers.Create(ctx, k, mine)
		if errors.Is(err, jetstream.ErrKeyExists) {
			return nil, ErrHeld // another host created it first
		}
		if err != nil {
			return nil, err
		}
		return &Lease{SessionID: sid, HostID: m.cfg.HostID, revision: rev}, nil
	}
	if err != nil {
		return nil, err
	}
	var held writerRecord
	if err := json.Unmarshal(e.Value(), &held); err != nil {
		return nil, fmt.Errorf("fleet: writer of %s: %w", sid, err)
	}
	if held.Host == m.cfg.HostID && held.Incarnation == inc {
		return &Lease{SessionID: sid, HostID: m.cfg.HostID, revision: e.Revision()}, nil
	}
	live, err := m.alive(ctx, held.Host, held.Incarnation)
	if err != nil {
		return nil, err
	}
	if live {
		return nil, fmt.Errorf("%w (%s)", ErrHeld, held.Host)
	}
	rev, err := m.writers.Update(ctx, k, mine, e.Revision())
	if errors.Is(err, jetstream.ErrKeyExists) {
		return nil, ErrHeld // another survivor took it first
	}
	if err != nil {
		return nil, err
	}
	return &Lease{SessionID: sid, HostID: m.cfg.HostID, revision: rev}, nil
}

// Release gives l up (a graceful shutdown), so that another host may
// take the session at once; a lease already lost is left alone.
func (m *Member) Release(ctx context.Context, l *Lease) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := retrying(ctx, func(ctx context.Context) error {
		return m.writers.Delete(ctx, key(l.SessionID), jetstream.LastRevision(l.revision))
	})
	if errors.Is(err, jetstream.ErrKeyExists) {
		return ErrLost
	}
	return err
}

// Holder names the live host holding session sid's lease ("" when none).
func (m *Member) Holder(ctx context.Context, sid string) (string, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var held writerRecord
	err := retrying(ctx, func(ctx context.Context) error {
		e, err := m.writers.Get(ctx, key(sid))
		if err == nil {
			err = json.Unmarshal(e.Value(), &held)
		}
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	live, err := m.alive(ctx, held.Host, held.Incarnation)
	if err != nil || !live {
		return "", err
	}
	return held.Host, nil
}
