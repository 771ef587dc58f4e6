package host

import (
	"slices"
	"time"
)

// A fleet host serves another host's session from a replica made on
// first use (fleet_replica.go). A replica no client subscribes to or has
// asked about for Options.ReplicaIdle is evicted: its relay subscription
// ends and its fold is dropped, so what a host holds follows what its
// clients use, not the fleet's size. The next request makes a new one.

// DefaultReplicaIdle is Options.ReplicaIdle's default.
const DefaultReplicaIdle = 2 * time.Minute

func (h *Host) replicaIdle() time.Duration {
	if h.opts.ReplicaIdle > 0 {
		return h.opts.ReplicaIdle
	}
	return DefaultReplicaIdle
}

// touch records that a request found s.
func (s *session) touch() { s.usedAt.Store(time.Now().UnixNano()) }

// evictReplicas looks for idle replicas a few times per idle period
// until the fleet member closes.
func (h *Host) evictReplicas(f *fleetMembership) {
	defer f.done.Done()
	idle := h.replicaIdle()
	t := time.NewTicker(max(idle/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case now := <-t.C:
			if n := h.evictIdleReplicas(now.Add(-idle)); n > 0 {
				h.log.Debug("evicted idle replicas", "count", n)
				h.returnMemory()
			}
		}
	}
}

// evictIdleReplicas drops every replica with no subscriber that no
// request found since before, and returns how many it dropped.
func (h *Host) evictIdleReplicas(before time.Time) int {
	h.replicaMu.Lock() // no replica is made or taken over meanwhile
	defer h.replicaMu.Unlock()
	var gone []*session
	for _, s := range h.sessionList() {
		if s.replica && !s.isRetired() && s.usedAt.Load() < before.UnixNano() && s.retireIfUnsubscribed() {
			gone = append(gone, s)
		}
	}
	if len(gone) == 0 {
		return 0
	}
	h.mu.Lock()
	for _, s := range gone {
		if h.sessions[s.id] == s {
			delete(h.sessions, s.id)
		}
	}
	h.order = slices.DeleteFunc(h.order, func(s *session) bool { return slices.Contains(gone, s) })
	h.mu.Unlock()
	for _, s := range gone {
		if s.stopRelay != nil {
			_ = s.stopRelay() // the member may be closing: its subscriptions end anyway
		}
	}
	return len(gone)
}

// retireIfUnsubscribed retires a replica no client subscribes to. A
// subscribe that found it just before sees it retired and has its client
// resume, which makes a new replica.
func (s *session) retireIfUnsubscribed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.subs) > 0 {
		return false
	}
	s.retired.Store(true)
	return true
}
