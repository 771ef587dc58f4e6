package fleet

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// A Lease makes its holder the one host that writes a session. It lives
// in the leases bucket under the session's key, holding the host id; the
// bucket's TTL removes a lease its holder stopped renewing. Every change
// is a compare-and-set on the key's revision, so of hosts racing for a
// session exactly one wins.
type Lease struct {
	SessionID string
	HostID    string
	revision  uint64
}

var (
	// ErrHeld: another host holds the session's lease.
	ErrHeld = errors.New("fleet: another host holds the session's writer lease")
	// ErrLost: the lease expired or another host took it since.
	ErrLost = errors.New("fleet: the writer lease was lost")
)

// Acquire takes session sid's lease for this host: it creates it when no
// host holds one (a new session, or its holder died and the lease
// expired) and renews it when this host already holds it. Another host's
// live lease is ErrHeld.
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

// acquire is one attempt of Acquire. An attempt whose create was stored
// but not answered finds this host's lease in the next one, and renews it.
func (m *Member) acquire(ctx context.Context, sid string) (*Lease, error) {
	k := key(sid)
	e, err := m.leases.Get(ctx, k)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		rev, err := m.leases.Create(ctx, k, []byte(m.cfg.HostID))
		if errors.Is(err, jetstream.ErrKeyExists) {
			return nil, ErrHeld // another host created it first
		}
		if err != nil {
			return nil, err
		}
		return &Lease{SessionID: sid, HostID: m.cfg.HostID, revision: rev}, nil
	case err != nil:
		return nil, err
	case string(e.Value()) != m.cfg.HostID:
		return nil, fmt.Errorf("%w (%s)", ErrHeld, e.Value())
	}
	l := &Lease{SessionID: sid, HostID: m.cfg.HostID, revision: e.Revision()}
	return l, m.renew(ctx, l)
}

// Renew extends l by the lease TTL; ErrLost when it expired or was taken.
func (m *Member) Renew(ctx context.Context, l *Lease) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return retrying(ctx, func(ctx context.Context) error { return m.renew(ctx, l) })
}

// renew is one attempt of Renew. When the revision moved, the lease may
// still be this host's: an earlier attempt's update was stored but not
// answered.
func (m *Member) renew(ctx context.Context, l *Lease) error {
	k := key(l.SessionID)
	rev, err := m.leases.Update(ctx, k, []byte(l.HostID), l.revision)
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyNotFound) {
		e, gerr := m.leases.Get(ctx, k)
		if gerr != nil || string(e.Value()) != l.HostID || e.Revision() <= l.revision {
			return ErrLost
		}
		rev, err = e.Revision(), nil
	}
	if err != nil {
		return err
	}
	l.revision = rev
	return nil
}

// Release gives l up (a graceful shutdown), so that another host may
// take the session at once; a lease already lost is left alone.
func (m *Member) Release(ctx context.Context, l *Lease) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := retrying(ctx, func(ctx context.Context) error {
		return m.leases.Delete(ctx, key(l.SessionID), jetstream.LastRevision(l.revision))
	})
	if errors.Is(err, jetstream.ErrKeyExists) {
		return ErrLost
	}
	return err
}

// Holder names the host holding session sid's lease ("" when none).
func (m *Member) Holder(ctx context.Context, sid string) (string, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var holder string
	err := retrying(ctx, func(ctx context.Context) error {
		e, err := m.leases.Get(ctx, key(sid))
		if err == nil {
			holder = string(e.Value())
		}
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", nil
	}
	return holder, err
}
