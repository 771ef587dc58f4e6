package host

import (
	"os"
	"time"

	"github.com/gorilla/websocket"
)

// shutdownStore undoes openStore and loadSessions when Start fails after
// them.
func (h *Host) shutdownStore() {
	h.mu.Lock()
	h.closing = true
	h.mu.Unlock()
	h.stopTurns()
	if c, ok := h.agent.(AgentCloser); ok {
		c.Close()
	}
	h.flushAll()
	h.flushes.Wait()
	_ = h.closeStore() // Start reports its own error
	h.release()
}

// Close shuts the host down gracefully: it stops accepting connections,
// stops running turns (they end "stopped", error code "hostShutdown";
// queued turns stay queued in a durable journal), flushes and closes every
// connection with 1001, and closes the journal.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		h.mu.Lock()
		h.closing = true
		h.mu.Unlock()
		if b, ok := h.j.(shutdownBounded); ok {
			b.shutdownWithin(shutdownJournalBudget)
		}
		if h.srv != nil {
			h.srv.Close() // the listener; hijacked WebSockets stay open
		}
		h.stopTurns()
		if c, ok := h.agent.(AgentCloser); ok {
			if err := c.Close(); err != nil {
				h.log.Warn("closing the agent", "err", err)
			}
		}
		h.flushAll()
		h.mu.Lock()
		conns := make([]*conn, 0, len(h.conns))
		for c := range h.conns {
			conns = append(conns, c)
		}
		h.mu.Unlock()
		for _, c := range conns {
			c.closeAfterFlush(websocket.CloseGoingAway, "host shutting down")
		}
		deadline := time.NewTimer(2 * time.Second) // for stalled clients
		defer deadline.Stop()
		for _, c := range conns {
			select {
			case <-c.done:
			case <-deadline.C:
				for _, c := range conns {
					c.ws.Close()
				}
				<-c.done
			}
		}
		clean := h.flushAll()
		h.flushes.Wait()
		if clean && h.j.durable() {
			h.persistIndexes()
			if err := h.writeShutdownSummary(); err != nil {
				h.log.Warn("could not record the clean shutdown; the next start loads every session", "err", err)
			}
		}
		h.closeErr = h.closeStore()
		if h.dataDir != "" && !h.opts.Ephemeral {
			os.Remove(AddressPath(h.dataDir))
		}
		h.release()
		if h.srv != nil {
			<-h.served
		}
	})
	return h.closeErr
}

// shutdownJournalBudget bounds what a graceful shutdown spends on a
// remote journal in all (its last commits, indexes, summary, leases): a
// host asked to stop while NATS is unreachable stops within it, and its
// next start rebuilds from the journal what it could not persist.
const shutdownJournalBudget = 5 * time.Second

// shutdownBounded is a journal whose operations a shutdown can bound.
type shutdownBounded interface{ shutdownWithin(d time.Duration) }

// stopTurns interrupts every running turn and waits for their terminals.
func (h *Host) stopTurns() {
	for _, s := range h.sessionList() {
		s.mu.Lock()
		if s.active != nil {
			s.active.shutdown = true
			s.active.cancel()
		}
		s.mu.Unlock()
	}
	h.wg.Wait()
}

// flushAll journals and sends what every session has emitted, and
// reports whether every commit succeeded.
func (h *Host) flushAll() bool {
	ok := true
	for _, s := range h.sessionList() {
		if s.isRetired() {
			continue // another host writes it now
		}
		if err := s.flush(); err != nil {
			h.log.Error("final journal commit failed", "session", s.id, "err", err)
			ok = false
		}
	}
	return ok
}

// persistIndexes persists every loaded session's index (checkpoint.go);
// a session whose index cannot be written is read whole at its next load.
func (h *Host) persistIndexes() {
	for _, s := range h.sessionList() {
		if err := s.persistIndex(); err != nil {
			h.log.Warn("could not persist a session's index; its next load reads the whole journal", "session", s.id, "err", err)
		}
	}
}
