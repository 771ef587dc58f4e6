package host

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/fleet"
)

// fleetJournal is a JetStream journal shared by a fleet of hosts: the host
// loads only the sessions whose writer lease it can take (a session another
// live host writes is skipped; one whose writer died, its lease expired,
// is taken over and recovered as after a restart, exactly once), takes the
// lease of each session it creates, renews its leases, and lists its
// sessions in the fleet directory. Meta values are this host's own.
type fleetJournal struct {
	journal
	js *jsJournal
	m  *fleet.Member

	mu     sync.Mutex
	leases map[string]*fleet.Lease
	// adopt, once the host has started, restores a session this host
	// took over while running.
	adopt func(sessionRecord) error

	stop chan struct{}
	done chan struct{}
}

func newFleetJournal(j *jsJournal, m *fleet.Member, ttl time.Duration) *fleetJournal {
	f := &fleetJournal{journal: j, js: j, m: m, leases: map[string]*fleet.Lease{}, stop: make(chan struct{}), done: make(chan struct{})}
	go f.renewEvery(ttl / 3)
	return f
}

func (f *fleetJournal) sessions() ([]sessionRecord, error) {
	recs, err := f.journal.sessions()
	if err != nil {
		return nil, err
	}
	var mine []sessionRecord
	for _, rec := range recs {
		err := f.take(rec.ID)
		if errors.Is(err, fleet.ErrHeld) {
			continue // another host writes it
		}
		if err != nil {
			return nil, err
		}
		mine = append(mine, rec)
	}
	return mine, nil
}

func (f *fleetJournal) createSession(rec sessionRecord) error {
	if err := f.take(rec.ID); err != nil {
		return err
	}
	return f.journal.createSession(rec)
}

// take acquires sid's lease and registers the session as this host's.
func (f *fleetJournal) take(sid string) error {
	ctx := context.Background()
	l, err := f.m.Acquire(ctx, sid)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.leases[sid] = l
	f.mu.Unlock()
	return f.m.Register(ctx, sid, "")
}

// renewEvery renews the host's leases, and takes over the sessions whose
// lease no host holds, until close. A lease found lost is dropped: the
// journal's one-writer check refuses this host's appends to the session
// once its new writer appended.
func (f *fleetJournal) renewEvery(d time.Duration) {
	defer close(f.done)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		f.mu.Lock()
		held := make([]*fleet.Lease, 0, len(f.leases))
		for _, l := range f.leases {
			held = append(held, l)
		}
		f.mu.Unlock()
		for _, l := range held {
			if err := f.m.Renew(context.Background(), l); errors.Is(err, fleet.ErrLost) {
				f.mu.Lock()
				delete(f.leases, l.SessionID)
				f.mu.Unlock()
			}
		}
		f.adoptFree()
	}
}

// setAdopt starts taking over sessions while running.
func (f *fleetJournal) setAdopt(adopt func(sessionRecord) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.adopt = adopt
}

// adoptFree takes the lease of every session no host holds (its writer
// died, or shut down) and hands the session to adopt; a session adopt
// fails is released for another host.
func (f *fleetJournal) adoptFree() {
	f.mu.Lock()
	adopt := f.adopt
	f.mu.Unlock()
	if adopt == nil {
		return
	}
	ctx, cancel := opContext()
	defer cancel()
	recs, err := f.js.storedSessions(ctx)
	if err != nil {
		return // asked again at the next tick
	}
	for _, rec := range recs {
		f.mu.Lock()
		_, held := f.leases[rec.ID]
		f.mu.Unlock()
		if held || f.take(rec.ID) != nil {
			continue
		}
		if rec, err = f.js.withLease(ctx, rec); err == nil {
			err = adopt(rec)
		}
		if err != nil {
			f.mu.Lock()
			l := f.leases[rec.ID]
			delete(f.leases, rec.ID)
			f.mu.Unlock()
			_ = f.m.Release(ctx, l) // if it fails, the lease expires
		}
	}
}

func (f *fleetJournal) setMeta(k, v string) error {
	return f.journal.setMeta("host:"+f.m.HostID()+":"+k, v)
}

func (f *fleetJournal) meta(k string) (string, error) {
	return f.journal.meta("host:" + f.m.HostID() + ":" + k)
}

// close releases the leases (a graceful shutdown: another host may take
// the sessions at once), leaves the fleet and closes the journal.
func (f *fleetJournal) close() error {
	close(f.stop)
	<-f.done
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []error
	for _, l := range f.leases {
		if err := f.m.Release(context.Background(), l); err != nil && !errors.Is(err, fleet.ErrLost) {
			errs = append(errs, err)
		}
	}
	errs = append(errs, f.m.Close(), f.journal.close())
	return errors.Join(errs...)
}
