package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go/jetstream"
)

// A host is live while its key in the hosts bucket is: one key per host,
// holding its incarnation (a random id of this run of it), renewed by a
// compare-and-set every third of the TTL. The bucket's TTL removes a key
// its host stopped renewing and leaves a marker that every watcher sees.
// A session's writer claim names a host and an incarnation; it holds only
// while that incarnation is live. Renewal costs one write per host,
// whatever the number of sessions it writes.
type hostRecord struct {
	Incarnation string `json:"incarnation"`
	URL         string `json:"url,omitempty"`
}

// ErrNotLive: this host's liveness lapsed (its key expired, or another
// run of the same host id replaced it). Every writer claim it made is
// void: it must stop writing every session at once.
var ErrNotLive = errors.New("fleet: this host's liveness lapsed")

// live (re)starts this host's liveness under a new incarnation.
func (m *Member) live(ctx context.Context) error {
	inc := uuid.NewString()
	b, err := json.Marshal(hostRecord{Incarnation: inc, URL: m.cfg.HostURL})
	if err != nil {
		return err
	}
	var rev uint64
	start := time.Now()
	err = retrying(ctx, func(ctx context.Context) (err error) {
		rev, err = m.hosts.Put(ctx, m.cfg.HostID, b)
		return err
	})
	if err != nil {
		return fmt.Errorf("fleet: host %s: %w", m.cfg.HostID, err)
	}
	m.mu.Lock()
	m.inc, m.liveRev, m.liveSince, m.renewedAt = inc, rev, start, start
	m.mu.Unlock()
	return nil
}

// Heartbeat renews this host's liveness. ErrNotLive when it lapsed: the
// caller stops writing every session, then calls Rejoin.
func (m *Member) Heartbeat(ctx context.Context) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	m.mu.Lock()
	inc, rev := m.inc, m.liveRev
	m.mu.Unlock()
	b, err := json.Marshal(hostRecord{Incarnation: inc, URL: m.cfg.HostURL})
	if err != nil {
		return err
	}
	start := time.Now()
	var next uint64
	err = retrying(ctx, func(ctx context.Context) (err error) {
		next, err = m.hosts.Update(ctx, m.cfg.HostID, b, rev)
		if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyNotFound) {
			// An earlier attempt may have been stored but not answered.
			if e, gerr := m.hosts.Get(ctx, m.cfg.HostID); gerr == nil && e.Revision() > rev && sameIncarnation(e.Value(), inc) {
				return nil
			}
			return ErrNotLive
		}
		return err
	})
	if err != nil {
		return err
	}
	m.mu.Lock()
	if m.inc == inc {
		if next != 0 {
			m.liveRev = next
		}
		m.renewedAt = start
	}
	m.mu.Unlock()
	return nil
}

// Rejoin makes this host live again under a new incarnation, after
// ErrNotLive or a Deadline that passed: the sessions it wrote are free,
// for it as for any host, to take again.
func (m *Member) Rejoin(ctx context.Context) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return m.live(ctx)
}

// Deadline is when this host must consider its claims void unless a
// heartbeat succeeds first: a margin before the TTL runs out, counted
// from the start of the last heartbeat that succeeded (the server's clock
// starts the key's TTL no earlier).
func (m *Member) Deadline() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.renewedAt.Add(m.cfg.LeaseTTL * 4 / 5)
}

// Incarnation is this host's current incarnation.
func (m *Member) Incarnation() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.inc
}

func sameIncarnation(v []byte, inc string) bool {
	var r hostRecord
	return json.Unmarshal(v, &r) == nil && r.Incarnation == inc
}

// alive reports whether host's incarnation inc is live: the watched view
// answers when it saw that incarnation beat within the TTL; otherwise
// the bucket itself is asked, so a lagging view never takes a live
// host's session and a view that missed an expiry never keeps a dead
// host's.
func (m *Member) alive(ctx context.Context, host, inc string) (bool, error) {
	if host == m.cfg.HostID {
		return inc == m.Incarnation(), nil
	}
	m.mu.Lock()
	seen := m.seemsLiveLocked(writerRecord{Host: host, Incarnation: inc})
	m.mu.Unlock()
	if seen {
		return true, nil
	}
	var e jetstream.KeyValueEntry
	err := retrying(ctx, func(ctx context.Context) (err error) {
		e, err = m.hosts.Get(ctx, host)
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return sameIncarnation(e.Value(), inc), nil
}
