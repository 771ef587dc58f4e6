package host

import (
	"time"

	"github.com/lookout-sh/lookout/fleet"
	"github.com/lookout-sh/lookout/model"
)

// publishDirectory keeps the directory entries of the sessions this host
// writes current (title, status, head, queued turns, last activity), so
// that every other host lists the fleet from the directory without
// folding a session it does not serve. It looks once a second and writes
// only the entries whose fields changed: a fleet at rest writes nothing.
func (h *Host) publishDirectory(f *fleetMembership) {
	defer f.done.Done()
	published := map[string]directoryFields{}
	versions := map[string]directoryVersion{}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		for _, s := range h.sessionList() {
			if s.replica || s.isRetired() || !f.holds(s.id) {
				continue
			}
			v := s.directoryVersion()
			if old, seen := versions[s.id]; seen && old == v {
				continue // nothing emitted since: the entry is current
			}
			d := s.directoryFields()
			if published[s.id] != d {
				if err := f.m.Publish(f.ctx, s.id, d.state, d.sum); err != nil {
					continue // asked again at the next look
				}
				published[s.id] = d
			}
			versions[s.id] = v
		}
	}
}

// directoryVersion changes whenever a session's list fields may have:
// an event emitted (title, head, activity), a turn queued or started. It
// is read without building the entry, so a host at rest looks at its
// sessions for a few nanoseconds each.
type directoryVersion struct {
	seq, queued int64
	active      bool
}

func (s *session) directoryVersion() directoryVersion {
	if !s.loaded.Load() {
		return directoryVersion{seq: s.stub.Load().Head, queued: -1}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return directoryVersion{seq: s.seq, queued: int64(len(s.queue)), active: s.active != nil}
}

// directoryFields are the list fields a writer publishes of a session.
type directoryFields struct {
	state string
	sum   fleet.Summary
}

func (s *session) directoryFields() directoryFields {
	e := s.summary()
	str := func(k string) string { v, _ := e[k].(string); return v }
	d := directoryFields{state: str("status"), sum: fleet.Summary{
		Title: str("title"), Epoch: s.epoch, CreatedAt: s.created, LastActivity: str("updatedAt"),
	}}
	d.sum.QueuedTurns, _ = e["queuedTurns"].(int)
	d.sum.Needs = str("needs")
	d.sum.PendingApprovals, _ = e["pendingApprovals"].(int)
	if _, seq, ok := model.ParseCursor(str("head")); ok {
		d.sum.Head = seq
	}
	return d
}
