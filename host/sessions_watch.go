package host

import (
	"encoding/json"
	"sync"
	"time"
)

// The host's summary stream (sessions/watch, docs/protocol.md): a
// connection that watches is sent every session's session/list entry at
// once, then, at most once a watchEvery, the entries that changed and the
// ids of sessions that are gone. A host at rest sends nothing: the look
// compares cheap versions first (directoryVersion) and builds an entry
// only for a session that emitted.

// watchEvery is how often the stream looks for changes.
var watchEvery = time.Second

// watchChunk bounds the entries of one sessions/changed notification.
const watchChunk = 500

// sessionsWatch is the stream's state.
type sessionsWatch struct {
	mu       sync.Mutex
	conns    map[*conn]bool // watching connections; true until told the whole list
	running  bool
	versions map[string]directoryVersion
	sent     map[string]string // session id -> the entry's JSON as last told
}

// watch adds c to the stream; its first notifications tell it every
// session, right away.
func (h *Host) watch(c *conn) {
	w := &h.sessionsWatch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conns == nil {
		w.conns, w.versions, w.sent = map[*conn]bool{}, map[string]directoryVersion{}, map[string]string{}
	}
	w.conns[c] = true
	if !w.running {
		w.running = true
		go h.runSessionsWatch()
	}
	go h.lookSessions() // the whole list now, not at the next tick
}

// unwatch takes c out of the stream (sessions/unwatch, or its end).
func (h *Host) unwatch(c *conn) {
	w := &h.sessionsWatch
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.conns, c)
}

// runSessionsWatch looks every watchEvery while anyone watches.
func (h *Host) runSessionsWatch() {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-h.served:
			return
		case <-t.C:
		}
		if !h.lookSessions() {
			return
		}
	}
}

// lookSessions sends what changed since the last look to every watcher,
// and the whole list to a new one. It reports whether anyone watches (the
// stream stops when nobody does).
func (h *Host) lookSessions() bool {
	w := &h.sessionsWatch
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.conns) == 0 {
		w.running = false
		clear(w.versions)
		clear(w.sent)
		return false
	}
	var all, changed []json.RawMessage
	live := map[string]bool{}
	for _, s := range h.sessionList() {
		if s.isRetired() {
			continue
		}
		live[s.id] = true
		v := s.directoryVersion()
		old, seen := w.versions[s.id]
		entry := w.sent[s.id]
		if !seen || old != v {
			b, err := json.Marshal(s.summary())
			if err != nil {
				continue
			}
			w.versions[s.id] = v
			if string(b) != entry {
				entry = string(b)
				w.sent[s.id] = entry
				changed = append(changed, json.RawMessage(entry))
			}
		}
		all = append(all, json.RawMessage(entry))
	}
	var removed []string
	for id := range w.sent {
		if !live[id] {
			removed = append(removed, id)
			delete(w.sent, id)
			delete(w.versions, id)
		}
	}
	for c, fresh := range w.conns {
		if c.isClosing() {
			delete(w.conns, c)
			continue
		}
		if fresh {
			w.conns[c] = false
			sendSessionsChanged(c, all, nil, true)
			continue
		}
		if len(changed) > 0 || len(removed) > 0 {
			sendSessionsChanged(c, changed, removed, false)
		}
	}
	return true
}

// sendSessionsChanged sends entries (in chunks) and removed ids to c as
// sessions/changed; initial marks the whole list a new watcher gets.
func sendSessionsChanged(c *conn, entries []json.RawMessage, removed []string, initial bool) {
	now := time.Now().UnixMilli()
	for first := true; first || len(entries) > 0; first = false {
		n := min(len(entries), watchChunk)
		p := map[string]any{"sessions": entries[:n]}
		if initial {
			p["initial"] = true
			p["more"] = n < len(entries)
		}
		if len(removed) > 0 && n == len(entries) {
			p["removed"] = removed
		}
		if p["sessions"] == nil || n == 0 {
			p["sessions"] = []json.RawMessage{}
		}
		b, _ := json.Marshal(p)
		// Never shed: a watcher that cannot keep up is closed (1013) and
		// watches again, getting the whole list.
		c.enqueue(outMsg{data: notificationFrame("sessions/changed", b, now), kind: kindDurable})
		entries = entries[n:]
	}
}

// watchSessions answers sessions/watch: {} now, then sessions/changed.
func (c *conn) watchSessions(json.RawMessage) (any, *rpcError) {
	c.h.watch(c)
	return struct{}{}, nil
}

// unwatchSessions answers sessions/unwatch.
func (c *conn) unwatchSessions(json.RawMessage) (any, *rpcError) {
	c.h.unwatch(c)
	return struct{}{}, nil
}
