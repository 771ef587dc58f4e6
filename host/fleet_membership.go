package host

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lookout-sh/lookout/fleet"
)

// fleetMembership is a host's part in a fleet of hosts sharing one
// JetStream journal. The host drives it beside its store, which knows
// nothing of fleets: the host loads only the sessions whose writer lease
// it can take (mine: a session another live host writes is skipped; one
// whose writer died is taken over and recovered as after a restart,
// exactly once), takes the lease of each session it creates and claims its
// journal (fencing every earlier writer) before the store creates it,
// keeps itself live with one heartbeat per TTL third, and lists its
// sessions in the fleet directory. Meta keys are this host's own
// (metaKey).
type fleetMembership struct {
	js  *jsJournal
	m   *fleet.Member
	ttl time.Duration

	mu     sync.Mutex
	leases map[string]*fleet.Lease
	// adopt, once the host has started, restores a session this host
	// took over while running; lost steps down from a session this host
	// no longer writes.
	adopt func(sessionRecord) error
	lost  func(sid string, why error)
	// free queues the sessions the fleet's watches report writerless,
	// each once until the adopter tried it.
	free    chan string
	freeSet map[string]bool

	// needRejoin: the liveness lapsed (lapse); the next beat starts a new
	// incarnation instead of renewing the old one. lapseMu makes a lapse
	// whole before anyone sees its sessions, and a take whole before a
	// lapse looks for them: a lease taken under an incarnation that
	// lapses meanwhile is either dropped by the lapse or never taken.
	needRejoin atomic.Bool
	lapseMu    sync.RWMutex // takes share it (they run side by side), a lapse holds it alone

	claimedGate func(sid string) // Options.claimedGate

	stop chan struct{}
	// ctx ends at close: what the fleet does in the background (beats,
	// adoptions) gives up at once then.
	ctx    context.Context
	cancel context.CancelFunc
	done   sync.WaitGroup
}

func newFleetMembership(j *jsJournal, m *fleet.Member, ttl time.Duration) *fleetMembership {
	f := &fleetMembership{js: j, m: m, ttl: ttl, leases: map[string]*fleet.Lease{},
		free: make(chan string, 1024), freeSet: map[string]bool{}, stop: make(chan struct{})}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	f.done.Add(1)
	go f.beat()
	return f
}

// mine keeps, of the journal's sessions, those whose writer lease this
// host takes now, with their lease.
func (f *fleetMembership) mine(recs []sessionRecord) ([]sessionRecord, error) {
	var mine []sessionRecord
	for _, rec := range recs {
		err := f.take(rec.ID)
		if errors.Is(err, fleet.ErrHeld) {
			continue // another host writes it
		}
		if err != nil {
			return nil, err
		}
		if rec, err = f.js.withLease(context.Background(), rec); err != nil {
			return nil, err
		}
		mine = append(mine, rec)
	}
	return mine, nil
}

// created lists a session this host took and its store created: every
// host lists it from now on (publishDirectory adds the rest).
func (f *fleetMembership) created(rec sessionRecord) error {
	return f.m.Publish(f.ctx, rec.ID, "idle", fleet.Summary{Epoch: rec.Epoch, CreatedAt: rec.CreatedAt, LastActivity: rec.CreatedAt})
}

// take acquires sid's lease, claims its journal (from here on, no earlier
// writer's append is accepted) and registers the session as this host's.
func (f *fleetMembership) take(sid string) error {
	f.lapseMu.RLock()
	defer f.lapseMu.RUnlock()
	if f.needRejoin.Load() || f.pastDeadline() {
		// A lapsed incarnation takes nothing: its lease would be void.
		return errLivenessDeadline
	}
	ctx := f.ctx
	l, err := f.m.Acquire(ctx, sid)
	if err != nil {
		return err
	}
	if err := f.js.claim(sid); err != nil {
		_ = f.m.Release(ctx, l) // another host may try; else nobody holds it
		return err
	}
	if f.claimedGate != nil {
		f.claimedGate(sid)
	}
	f.mu.Lock()
	f.leases[sid] = l
	f.mu.Unlock()
	return f.m.Register(ctx, sid, "")
}

// holds reports whether this host holds sid's lease.
func (f *fleetMembership) holds(sid string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.leases[sid] != nil
}

// dropLease drops sid's lease, if held, without releasing it (another
// host holds it now, or this host's liveness lapsed), and fences the
// journal's log of it.
func (f *fleetMembership) dropLease(sid string) bool {
	f.js.fence(sid)
	f.mu.Lock()
	defer f.mu.Unlock()
	_, held := f.leases[sid]
	delete(f.leases, sid)
	return held
}

// start begins following the fleet once the host runs: sessions whose
// writer died are adopted, and sessions taken from this host are stepped
// down from.
func (f *fleetMembership) start(adopt func(sessionRecord) error, lost func(string, error)) error {
	f.mu.Lock()
	f.adopt, f.lost = adopt, lost
	f.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	stop := f.stop
	go func() { <-stop; cancel() }()
	err := f.m.Watch(ctx, fleet.Watchers{Free: f.queueFree, Taken: func(sid string) {
		if f.dropLease(sid) {
			go lost(sid, fleet.ErrLost)
		}
	}})
	if err != nil {
		return err
	}
	f.done.Add(1)
	go f.adoptQueued()
	return nil
}

// queueFree queues sid for adoption, once; a full queue drops it (the
// watch's next sweep reports it again).
func (f *fleetMembership) queueFree(sid string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.freeSet[sid] || f.leases[sid] != nil {
		return
	}
	select {
	case f.free <- sid:
		f.freeSet[sid] = true
	default:
	}
}

// adoptQueued takes over the sessions queued free, one at a time.
func (f *fleetMembership) adoptQueued() {
	defer f.done.Done()
	for {
		select {
		case <-f.stop:
			return
		case sid := <-f.free:
			f.mu.Lock()
			delete(f.freeSet, sid)
			f.mu.Unlock()
			f.adoptOne(sid)
		}
	}
}

// adoptOne takes sid's lease and hands the session to adopt; a session
// adopt fails is released for another host.
func (f *fleetMembership) adoptOne(sid string) {
	if f.holds(sid) || f.take(sid) != nil {
		return
	}
	ctx, cancel := f.js.opContext()
	defer cancel()
	rec, ok, err := f.js.sessionRecord(sid)
	if err == nil && !ok {
		err = errors.New("no such session in the sessions bucket")
	}
	if err == nil {
		rec, err = f.js.withLease(ctx, rec)
	}
	if err == nil {
		err = f.adopt(rec)
	}
	if err == nil && !f.holds(sid) {
		// The liveness lapsed while the session was being restored, and
		// the lapse found no session to step down yet: step down now,
		// or this host would serve it as its writer with a void lease.
		f.mu.Lock()
		lost := f.lost
		f.mu.Unlock()
		lost(sid, errLivenessDeadline)
		return
	}
	if err != nil {
		f.mu.Lock()
		l := f.leases[sid]
		delete(f.leases, sid)
		f.mu.Unlock()
		if l != nil {
			_ = f.m.Release(ctx, l) // if it fails, the next sweep finds it writerless
		}
	}
}

// beat keeps this host live. A heartbeat refused, or none succeeding
// before the member's deadline (a pause, an overload, a partition from
// NATS), lapses every lease at once: the host steps down from each
// session before another host can take it over, then rejoins under a new
// incarnation and may adopt its sessions again like any host.
func (f *fleetMembership) beat() {
	defer f.done.Done()
	t := time.NewTicker(f.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(f.ctx, f.ttl/3)
		if f.needRejoin.Load() {
			if f.m.Rejoin(ctx) == nil {
				f.needRejoin.Store(false)
			}
			cancel()
			continue
		}
		err := f.m.Heartbeat(ctx)
		cancel()
		if errors.Is(err, fleet.ErrNotLive) || f.pastDeadline() {
			f.lapse(cmpErr(err, errLivenessDeadline))
		}
	}
}

// pastDeadline reports whether this host can no longer be sure it is
// live: no heartbeat succeeded for 4/5 of the TTL (it was paused,
// overloaded, or cut off from NATS).
func (f *fleetMembership) pastDeadline() bool { return time.Now().After(f.m.Deadline()) }

// ensureLive lapses this host at once when it is past its deadline, so
// that a request arriving right after a pause (SIGSTOP) is never served
// by a writer that may have been replaced meanwhile; the beat would see
// it only at its next tick.
func (f *fleetMembership) ensureLive() {
	if !f.needRejoin.Load() && f.pastDeadline() {
		f.lapse(errLivenessDeadline)
	}
}

var errLivenessDeadline = errors.New("fleet: no heartbeat succeeded before this host's liveness deadline")

func cmpErr(err, otherwise error) error {
	if errors.Is(err, fleet.ErrNotLive) {
		return err
	}
	return otherwise
}

// lapse steps down from every session this host writes, and makes the
// next beat rejoin under a new incarnation (the old one's leases name
// sessions this host no longer writes: every host may take them).
func (f *fleetMembership) lapse(why error) {
	f.lapseMu.Lock()
	defer f.lapseMu.Unlock()
	f.needRejoin.Store(true)
	f.mu.Lock()
	sids := make([]string, 0, len(f.leases))
	for sid := range f.leases {
		sids = append(sids, sid)
	}
	clear(f.leases)
	lost := f.lost
	f.mu.Unlock()
	for _, sid := range sids {
		f.js.fence(sid)
		if lost != nil {
			lost(sid, why)
		}
	}
}

// metaKey is this host's own name for the meta value k: the journal's
// meta values are shared by the fleet.
func (f *fleetMembership) metaKey(k string) string { return "host:" + f.m.HostID() + ":" + k }

// close releases the leases (a graceful shutdown: another host may take
// the sessions at once) and leaves the fleet. The host closes its store
// after it.
func (f *fleetMembership) close() error {
	close(f.stop)
	f.cancel()
	f.done.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	ctx, cancel := f.js.opContext()
	defer cancel()
	var errs []error
	for _, l := range f.leases {
		if err := f.m.Release(ctx, l); err != nil && !errors.Is(err, fleet.ErrLost) {
			errs = append(errs, err)
		}
	}
	errs = append(errs, f.m.Close())
	return errors.Join(errs...)
}
