package fleet

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// fleetView is what this host's watches saw of the fleet: which host
// incarnations are live, and which host claims each session. It is kept
// by watching the hosts and writers buckets, so a fleet at rest costs no
// request at all: only each host's heartbeat, delivered to the others.
type fleetView struct {
	live     map[string]string       // host id -> live incarnation
	seenAt   map[string]time.Time    // host id -> when its last heartbeat was seen
	writerOf map[string]writerRecord // session key -> its lease's holder
	sids     map[string]string       // session key -> session id
	ready    bool                    // both watches delivered their initial values
}

// Watchers are told what the watches see; each is called on the watch's
// goroutine and must not block.
type Watchers struct {
	// Free: session sid seems to have no live writer (its host's key
	// expired, it was released, or the host has not beaten for a TTL):
	// a candidate, whoever Acquires it first writes it.
	Free func(sid string)
	// Taken: another host took session sid from this incarnation.
	Taken func(sid string)
}

// Watch follows the fleet until ctx ends or the member closes, calling w
// as sessions become free or are taken from this host. A session the
// view holds without a live writer is reported free again every sweep
// (a TTL) until someone takes it.
func (m *Member) Watch(ctx context.Context, w Watchers) error {
	hw, err := m.hosts.WatchAll(ctx)
	if err != nil {
		return err
	}
	ww, err := m.writers.WatchAll(ctx)
	if err != nil {
		_ = hw.Stop()
		return err
	}
	m.mu.Lock()
	m.view = fleetView{live: map[string]string{}, seenAt: map[string]time.Time{}, writerOf: map[string]writerRecord{}, sids: map[string]string{}}
	m.mu.Unlock()
	go m.follow(ctx, hw, ww, w)
	return nil
}

func (m *Member) follow(ctx context.Context, hw, ww jetstream.KeyWatcher, w Watchers) {
	defer func() { _ = hw.Stop(); _ = ww.Stop() }()
	sweep := time.NewTicker(m.cfg.LeaseTTL)
	defer sweep.Stop()
	hostsIn, writersIn := false, false
	for {
		var free, taken []string
		select {
		case <-ctx.Done():
			return
		case <-m.closed:
			return
		case e, ok := <-hw.Updates():
			if !ok {
				return
			}
			if e == nil {
				hostsIn = true
			} else {
				free = m.sawHost(e)
			}
		case e, ok := <-ww.Updates():
			if !ok {
				return
			}
			if e == nil {
				writersIn = true
			} else {
				free, taken = m.sawWriter(e)
			}
		case <-sweep.C:
			free = m.unwritten()
		}
		if hostsIn && writersIn && !m.viewReady() {
			free = append(free, m.unwritten()...)
		}
		for _, sid := range free {
			w.Free(sid)
		}
		for _, sid := range taken {
			w.Taken(sid)
		}
	}
}

// viewReady marks the view complete the first time it is asked.
func (m *Member) viewReady() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	was := m.view.ready
	m.view.ready = true
	return was
}

// sawHost applies a hosts-bucket change; it returns the sessions it
// freed (those of an incarnation that is no longer live).
func (m *Member) sawHost(e jetstream.KeyValueEntry) []string {
	host := e.Key()
	m.mu.Lock()
	defer m.mu.Unlock()
	before := m.view.live[host]
	switch e.Operation() {
	case jetstream.KeyValuePut:
		var r hostRecord
		if json.Unmarshal(e.Value(), &r) != nil {
			return nil
		}
		m.view.live[host] = r.Incarnation
		m.view.seenAt[host] = time.Now()
	default: // expired (a marker) or removed
		delete(m.view.live, host)
		delete(m.view.seenAt, host)
	}
	if before == "" || before == m.view.live[host] || !m.view.ready {
		return nil
	}
	var free []string
	for k, rec := range m.view.writerOf {
		if rec.Host == host && rec.Incarnation == before {
			free = append(free, m.view.sids[k])
		}
	}
	return free
}

// sawWriter applies a writers-bucket change: a session released is free,
// one another host claimed from this incarnation is taken.
func (m *Member) sawWriter(e jetstream.KeyValueEntry) (free, taken []string) {
	k := e.Key()
	sid, err := sessionOfKey(k)
	if err != nil {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	before, had := m.view.writerOf[k]
	if e.Operation() != jetstream.KeyValuePut {
		delete(m.view.writerOf, k)
		delete(m.view.sids, k)
		if m.view.ready {
			free = []string{sid}
		}
		return free, nil
	}
	var rec writerRecord
	if json.Unmarshal(e.Value(), &rec) != nil {
		return nil, nil
	}
	m.view.writerOf[k], m.view.sids[k] = rec, sid
	mine := func(r writerRecord) bool { return r.Host == m.cfg.HostID && r.Incarnation == m.inc }
	if had && mine(before) && !mine(rec) {
		taken = []string{sid}
	}
	if m.view.ready && !mine(rec) && !m.seemsLiveLocked(rec) {
		free = append(free, sid)
	}
	return free, taken
}

// unwritten lists the sessions whose lease names no live incarnation,
// and those whose lease names this one: the host may hold such a lease
// in the bucket without writing the session (its claim failed and the
// release did not go through), and nobody else will take it while this
// host lives. Free's receiver skips the sessions it does write.
func (m *Member) unwritten() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var free []string
	for k, rec := range m.view.writerOf {
		mine := rec.Host == m.cfg.HostID && rec.Incarnation == m.inc
		if mine || !m.seemsLiveLocked(rec) {
			free = append(free, m.view.sids[k])
		}
	}
	return free
}

// seemsLiveLocked reports whether the view saw rec's incarnation beat
// within the TTL. A host the view has not heard for longer is suspect
// even without an expiry marker (a watch that was down may have missed
// it): Acquire asks the bucket itself before taking its sessions. The
// caller holds m.mu.
func (m *Member) seemsLiveLocked(rec writerRecord) bool {
	return m.view.live[rec.Host] == rec.Incarnation && time.Since(m.view.seenAt[rec.Host]) <= m.cfg.LeaseTTL
}
