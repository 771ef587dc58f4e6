// Package host is Lookout's reference session host: a WebSocket JSON-RPC
// server speaking protocol version 1 (docs/protocol.md), with sessions whose
// durable events are journaled in SQLite (or kept in memory for the
// ephemeral profile), snapshots and pages made by running the client's own
// fold (package model), and a scripted demo agent.
//
// Start a host with Start; it serves until Close or until its context ends.
package host

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// Version is the host's version, reported in initialize's serverInfo.
const Version = "0.1.0"

// Host is a running session host. Its methods are safe for concurrent use.
type Host struct {
	opts    Options
	log     *slog.Logger
	agent   Agent
	j       journal
	token   string
	dataDir string
	release func()

	ln  net.Listener
	srv *http.Server
	tls bool // serving wss://

	mu       sync.Mutex
	sessions map[string]*session
	order    []*session
	conns    map[*conn]struct{}
	closing  bool
	demoSID  string

	health journalHealth

	wg        sync.WaitGroup // turn runners
	flushes   sync.WaitGroup // background session flushes
	closeOnce sync.Once
	closeErr  error
	served    chan struct{}

	queuedPeak atomic.Int64 // the most bytes one connection ever had queued
	slowCloses atomic.Int64 // connections closed with 1013 (queue full)
}

// Start opens (or creates) the journal, recovers sessions left open by an
// abnormal death, listens on opts.Addr and serves in the background. The
// host closes itself when ctx ends. It refuses NoAuth on a non-loopback
// address.
func Start(ctx context.Context, opts Options) (*Host, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.NoAuth && !isLoopback(opts.Addr) {
		return nil, fmt.Errorf("refusing --no-auth on %s: it is not a loopback address; only a host reachable from this machine alone may run without a token", opts.Addr)
	}
	if opts.OutboundQueue <= 0 {
		opts.OutboundQueue = DefaultOutboundQueue
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.OutboundBytes <= 0 {
		opts.OutboundBytes = DefaultOutboundBytes
	}
	h := &Host{opts: opts, log: opts.Logger, sessions: map[string]*session{}, conns: map[*conn]struct{}{},
		served: make(chan struct{}), release: func() {}}
	if h.log == nil {
		h.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	switch {
	case opts.AgentImpl != nil:
		h.agent = opts.AgentImpl
	case opts.Agent == "" || opts.Agent == "demo":
		h.agent = &DemoAgent{}
	default:
		return nil, fmt.Errorf("unknown agent %q (available: demo)", opts.Agent)
	}
	if err := h.openStore(); err != nil {
		h.release()
		return nil, err
	}
	if err := h.loadSessions(); err != nil {
		h.j.close()
		h.release()
		return nil, err
	}
	if err := h.setupDemo(); err != nil {
		h.shutdownStore()
		return nil, err
	}
	tlsConf, err := loadTLS(opts.TLSCert, opts.TLSKey)
	if err != nil {
		h.shutdownStore()
		return nil, err
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		h.shutdownStore()
		return nil, err
	}
	if tlsConf != nil {
		ln = tls.NewListener(ln, tlsConf)
		h.tls = true
	} else if !isLoopback(opts.Addr) {
		h.log.Warn(PlaintextWarning(opts.Addr))
	}
	h.ln = ln
	mux := http.NewServeMux()
	mux.HandleFunc(WSPath, h.serveWS)
	h.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(h.log.Handler(), slog.LevelDebug)}
	go func() {
		defer close(h.served)
		if err := h.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.log.Error("serve failed", "err", err)
		}
	}()
	// Queued turns admitted before a restart run now.
	for _, s := range h.sessionList() {
		s.mu.Lock()
		s.startNextLocked()
		s.mu.Unlock()
	}
	h.startFleet()
	go func() {
		select {
		case <-ctx.Done():
			h.Close()
		case <-h.served:
		}
	}()
	if h.dataDir != "" && !opts.Ephemeral {
		// Only the host that owns (locks) the data directory records its
		// address; an ephemeral host merely keeps its token there.
		if err := writeAddress(h.dataDir, h.URL()); err != nil {
			h.log.Warn("could not record the host's address", "err", err)
		}
	}
	durability := "durable"
	if opts.Ephemeral {
		durability = "ephemeral"
	}
	h.log.Info("lookout host serving", "url", h.URL(), "durability", durability, "data", h.dataDir)
	return h, nil
}

// openStore prepares the data directory, its lock, the token and the
// journal.
func (h *Host) openStore() error {
	h.dataDir = h.opts.DataDir
	if h.dataDir == "" && !h.opts.Ephemeral {
		h.dataDir = DefaultDataDir()
	}
	if h.dataDir != "" {
		if err := os.MkdirAll(h.dataDir, 0o700); err != nil {
			return fmt.Errorf("data directory: %w", err)
		}
		tightened, err := tightenDir(h.dataDir)
		if err != nil {
			return fmt.Errorf("data directory: %w", err)
		}
		if tightened != 0 {
			h.log.Warn("tightened the data directory's permissions to 0700", "dir", h.dataDir, "was", fmt.Sprintf("%#o", tightened))
		}
	}
	if h.opts.Ephemeral {
		h.j = newMemJournal()
	} else {
		rel, err := lockDataDir(h.dataDir)
		if err != nil {
			return err
		}
		h.release = rel
		j, err := h.openDurableJournal()
		if err != nil {
			return err
		}
		h.j = j
	}
	if h.opts.wrapJournal != nil {
		h.j = h.opts.wrapJournal(h.j)
	}
	if h.opts.NoAuth {
		return nil
	}
	tok, err := loadOrCreateToken(h.dataDir)
	if err != nil {
		h.j.close()
		return err
	}
	h.token = tok
	return nil
}

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
	h.j.close()
	h.release()
}

// loadOrCreateToken reads dir/token, or creates it (32 random bytes, hex,
// mode 0600). With dir "" the token lives in memory only.
func loadOrCreateToken(dir string) (string, error) {
	gen := func() (string, error) {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		return hex.EncodeToString(b), nil
	}
	if dir == "" {
		return gen()
	}
	path := TokenPath(dir)
	if b, err := os.ReadFile(path); err == nil {
		tok := strings.TrimSpace(string(b))
		if len(tok) >= 32 {
			if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
				os.Chmod(path, 0o600)
			}
			return tok, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("token: %w", err)
	}
	tok, err := gen()
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", err
	}
	if _, err := tmp.WriteString(tok); err != nil { // no newline: the file is the token, byte for byte
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return tok, nil
}

// IsLoopback reports whether a listen address (host:port, or a bare host)
// is loopback: localhost, 127.0.0.0/8 or ::1. An empty host (":7777") and
// 0.0.0.0 are not.
func IsLoopback(addr string) bool { return isLoopback(addr) }

func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// URL is the WebSocket URL clients dial: "ws://ADDR/v1/ws", or
// "wss://ADDR/v1/ws" when the host serves TLS.
func (h *Host) URL() string {
	if h.tls {
		return "wss://" + h.Addr() + WSPath
	}
	return "ws://" + h.Addr() + WSPath
}

// TLS reports whether the host serves wss://.
func (h *Host) TLS() bool { return h.tls }

// Addr is the address the host listens on, with the real port.
func (h *Host) Addr() string {
	if h.ln == nil {
		return h.opts.Addr
	}
	return h.ln.Addr().String()
}

// Token is the bearer token clients must present ("" with NoAuth).
func (h *Host) Token() string { return h.token }

// DataDir is the directory holding the journal and token ("" for an
// ephemeral host started without one).
func (h *Host) DataDir() string { return h.dataDir }

// Durability is "durable" or "ephemeral".
func (h *Host) Durability() string {
	if h.opts.Ephemeral {
		return "ephemeral"
	}
	return "durable"
}

// DefaultSessionID is the demo session's id ("" when there is none).
func (h *Host) DefaultSessionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.demoSID
}

func (h *Host) isClosing() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closing
}

// session finds a session by id, nil if there is none. It may be
// unloaded: requests use loadedSession.
func (h *Host) session(id string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// loadedSession finds a session by id and folds it if it started
// unloaded: nil and no error if there is no such session.
func (h *Host) loadedSession(id string) (*session, error) {
	s := h.session(id)
	if s == nil {
		return nil, nil
	}
	if err := s.ensureLoaded(); err != nil {
		return nil, err
	}
	return s, nil
}

func (h *Host) sessionList() []*session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*session(nil), h.order...)
}

// CreateSession creates a session, titled when title is not empty, and
// returns its id.
func (h *Host) CreateSession(title string) (string, error) {
	s, err := h.createSession(title)
	if err != nil {
		return "", err
	}
	return s.id, nil
}

// ErrTooManySessions refuses a session beyond Options.MaxSessions.
var ErrTooManySessions = errors.New("the host holds as many sessions as it allows")

func (h *Host) createSession(title string) (*session, error) {
	h.mu.Lock()
	closing, full := h.closing, len(h.order) >= h.opts.MaxSessions
	h.mu.Unlock()
	switch {
	case closing:
		return nil, errHostClosing
	case full:
		return nil, fmt.Errorf("%w (%d)", ErrTooManySessions, h.opts.MaxSessions)
	}
	if err := h.health.err(); err != nil {
		return nil, fmt.Errorf("%w (%v)", errJournalFailing, err)
	}
	title = cutUTF8(title, TitleBound)
	epoch := make([]byte, 8)
	rand.Read(epoch)
	rec := sessionRecord{ID: newID(), Epoch: hex.EncodeToString(epoch), CreatedAt: nowRFC3339()}
	if err := h.j.createSession(rec); err != nil {
		return nil, err
	}
	s := newSession(h, rec)
	values := map[string]any{}
	if title != "" {
		values["title"] = title
	}
	if name := agentName(h); name != "demo" && name != "custom" {
		values["agent"] = name // which agent's conversation this session holds
	}
	if len(values) > 0 {
		s.mu.Lock()
		_, err := s.emitLocked(model.MethodSessionState, values)
		s.mu.Unlock()
		if err == nil {
			err = s.flush()
		}
		if err != nil {
			return nil, err
		}
	}
	h.mu.Lock()
	h.sessions[s.id] = s
	h.order = append(h.order, s)
	h.mu.Unlock()
	return s, nil
}

// noteQueued records n bytes queued on one connection in the high-water
// mark that tests read.
func (h *Host) noteQueued(n int) {
	for {
		old := h.queuedPeak.Load()
		if int64(n) <= old || h.queuedPeak.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}

func (h *Host) addConn(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.conns[c] = struct{}{}
	return true
}

func (h *Host) dropConn(c *conn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
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
			c.closeAfterFlush(1001, "host shutting down")
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
			if err := h.writeShutdownSummary(); err != nil {
				h.log.Warn("could not record the clean shutdown; the next start loads every session", "err", err)
			}
		}
		h.closeErr = h.j.close()
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
		if err := s.flush(); err != nil {
			h.log.Error("final journal commit failed", "session", s.id, "err", err)
			ok = false
		}
	}
	return ok
}

func nowMs() int64 { return time.Now().UnixMilli() }

// sameOrigin reports whether an Origin header names the same host:port as
// the request's Host header (case-insensitively).
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}
