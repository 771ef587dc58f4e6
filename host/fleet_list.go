package host

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/fleet"
	"github.com/lookout-sh/lookout/model"
)

// A fleet host lists the whole fleet from the directory, where every
// writer publishes its sessions' list fields (fleet_directory.go), and
// holds nothing for a session it does not serve. What a listing needs
// between its pages (the order it gave the sessions, the directory it
// read) lives while clients page and is dropped listingIdle after the
// last page: a host at rest holds nothing per session of the fleet's.

// listingIdle is how long a fleet listing outlives its last page.
const listingIdle = 30 * time.Second

// fleetListState is the fleet listing clients page through.
type fleetListState struct {
	mu sync.Mutex
	// order is every session listed since the state was made: the
	// directory's sessions by id (UUIDv7: creation order), then those
	// found by later reads, so that a listing's pages never repeat or
	// skip one. It only grows, and at indexes it.
	order []string
	at    map[string]int
	dir   map[string]fleet.Entry // the newest directory read
	read  time.Time              // when dir was read
	used  time.Time              // the last page's time
	drop  *time.Timer
}

// fleetListing is the fleet's listing and the index of the session after
// the one with id after, for a page of at most limit sessions. The
// directory is read again for a new listing (after ""), for a page that
// reaches the listing's end (sessions created meanwhile come there) and
// after the listing was idle for a while. A cursor of a listing dropped
// since still works when its session is in the directory (the order is
// then the directory's again); else start is -1.
func (h *Host) fleetListing(f *fleetMembership, after string, limit int) (l listing, start int, err error) {
	st := &h.fleetList
	st.mu.Lock()
	defer st.mu.Unlock()
	now := time.Now()
	start, known := st.indexAfter(after)
	if after == "" || !known || start+limit >= len(st.order) || now.Sub(st.read) > listingIdle {
		ctx, cancel := f.js.opContext()
		entries, err := f.m.Sessions(ctx)
		cancel()
		if err != nil {
			return listing{}, 0, err
		}
		st.absorb(entries, h.writtenIDs(), now)
		h.noteWriters(st.dir)
		if start, known = st.indexAfter(after); !known {
			return listing{}, -1, nil
		}
	}
	st.used = now
	if st.drop == nil {
		st.drop = time.AfterFunc(listingIdle, func() {
			if st.dropIfIdle() {
				h.returnMemory()
			}
		})
	} else {
		st.drop.Reset(listingIdle)
	}
	order, dir := st.order, st.dir // order only grows and dir is replaced, never changed
	return listing{n: len(order), id: func(i int) string { return order[i] },
		entry: func(i int) map[string]any { return h.fleetEntry(order[i], dir) }}, start, nil
}

// indexAfter is the order's index after session after (0 for ""), and
// whether the state knows that session.
func (st *fleetListState) indexAfter(after string) (int, bool) {
	if after == "" {
		return 0, true
	}
	i, ok := st.at[after]
	return i + 1, ok
}

// absorb takes a directory read (sorted by session id) and the sessions
// this host writes: the sessions not listed yet join the order's end.
func (st *fleetListState) absorb(entries []fleet.Entry, written []string, now time.Time) {
	if st.at == nil {
		st.at = map[string]int{}
	}
	dir := make(map[string]fleet.Entry, len(entries))
	var fresh []string
	for _, e := range entries {
		dir[e.SessionID] = e
		if _, ok := st.at[e.SessionID]; !ok {
			fresh = append(fresh, e.SessionID)
		}
	}
	for _, id := range written { // created here, not in the directory read yet
		if _, listed := st.at[id]; !listed {
			if _, inDir := dir[id]; !inDir {
				fresh = append(fresh, id)
			}
		}
	}
	slices.Sort(fresh)
	for _, id := range fresh {
		st.at[id] = len(st.order)
		st.order = append(st.order, id)
	}
	st.dir, st.read = dir, now
}

// dropIfIdle forgets the listing once no page has been asked for
// listingIdle, and reports whether it held enough to give memory back.
func (st *fleetListState) dropIfIdle() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if time.Since(st.used) < listingIdle {
		return false // a page came meanwhile; its Reset fires again
	}
	big := len(st.order) >= 1000
	st.order, st.at, st.dir = nil, nil, nil
	return big
}

// writtenIDs are the sessions this host writes.
func (h *Host) writtenIDs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ids []string
	for _, s := range h.order {
		if !s.replica && !s.isRetired() {
			ids = append(ids, s.id)
		}
	}
	return ids
}

// fleetEntry is session id's session/list entry: from its fold when this
// host serves it (it writes it, or holds a replica), else from its
// directory entry; nil when it is in neither. An entry older than the
// published list fields (no epoch) is made a replica to list it.
func (h *Host) fleetEntry(id string, dir map[string]fleet.Entry) map[string]any {
	if s := h.session(id); s != nil && !s.isRetired() {
		return s.summary()
	}
	e, ok := dir[id]
	if !ok {
		return nil
	}
	if e.Epoch == "" {
		if s, err := h.replicaSession(id); err == nil && s != nil {
			return s.summary()
		} else if err != nil {
			h.log.Warn("could not serve a fleet session", "session", id, "host", e.HostID, "err", err)
		}
	}
	return directoryEntry(e)
}

// directoryEntry is the session/list entry a directory entry makes.
func directoryEntry(e fleet.Entry) map[string]any {
	m := map[string]any{"sessionId": e.SessionID, "title": cutUTF8(e.Title, TitleBound), "status": cmp.Or(e.State, "idle"),
		"updatedAt": cmp.Or(e.LastActivity, e.CreatedAt), "epoch": e.Epoch, "head": model.FormatCursor(e.SessionID, e.Head),
		"queuedTurns": e.QueuedTurns, "host": e.HostID, "pendingApprovals": e.PendingApprovals}
	if e.Needs != "" {
		m["needs"] = e.Needs
	}
	return m
}

// noteWriters brings each replica's writer up to its directory entry.
func (h *Host) noteWriters(dir map[string]fleet.Entry) {
	for _, s := range h.sessionList() {
		if e, ok := dir[s.id]; ok && s.replica && !s.isRetired() {
			s.mu.Lock()
			s.writer = e.HostID
			s.mu.Unlock()
		}
	}
}
