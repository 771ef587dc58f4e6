// Package host is Lookout's reference session host: a WebSocket JSON-RPC
// server speaking protocol version 1 (docs/protocol.md), with sessions whose
// durable events are journaled in SQLite, kept in memory (the ephemeral
// profile), or journaled in NATS JetStream, where a fleet of hosts shares
// the sessions and each is written by the one host holding its lease
// (docs/fleet.md). Snapshots and pages are made by running the client's
// own fold (package model). Agents plug in through Agent and Turn; the
// scripted DemoAgent is built in.
//
// Start a host with Start; it serves until Close or until its context ends.
// docs/architecture.md maps the package's files to their jobs.
package host

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lookout-sh/lookout/internal/hostproof"
)

// Version is the host's version, reported in initialize's serverInfo.
const Version = "0.1.0"

// Host is a running session host. Its methods are safe for concurrent use.
type Host struct {
	opts  Options
	log   *slog.Logger
	agent Agent
	j     journal
	// fl is the host's part in a fleet (Options.FleetHostID), beside its
	// store; nil for a host of its own.
	fl    *fleetMembership
	token string
	// proofKey answers hostproof challenges: the token, or with NoAuth
	// the token file a previous run left ("" if none).
	proofKey string
	dataDir  string
	release  func()

	ln  net.Listener
	srv *http.Server
	tls bool // serving wss://

	mu       sync.Mutex
	sessions map[string]*session
	order    []*session
	conns    map[*conn]struct{}
	// upgrading counts the connection slots taken by upgrades not yet
	// registered (reserveConn).
	upgrading int
	closing   bool
	demoSID   string
	// replicaMu serialises making replicas of other fleet hosts' sessions.
	replicaMu sync.Mutex
	fleetList fleetListState // a fleet host's session/list (fleet_list.go)
	// sessionsWatch is the summary stream (sessions/watch, sessions_watch.go).
	sessionsWatch sessionsWatch

	health journalHealth

	wg        sync.WaitGroup // turn runners
	flushes   sync.WaitGroup // background session flushes
	notices   *noticeGate    // nil unless NotifyCmd or NotifyURL is set (notify.go)
	closeOnce sync.Once
	closeErr  error
	served    chan struct{}

	queuedPeak    atomic.Int64  // the most bytes one connection ever had queued
	slowCloses    atomic.Int64  // connections closed with 1013 (queue full)
	out           outbound      // bytes queued across connections (budget.go)
	heavy         chan struct{} // slots for building heavy answers (heavySlot)
	budgetSheds   atomic.Int64  // connections closed for the host's budget
	invalidCloses atomic.Int64  // connections closed for a flood of invalid frames
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
	if opts.TotalOutboundBytes <= 0 {
		opts.TotalOutboundBytes = DefaultTotalOutboundBytes
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	h := &Host{opts: opts, log: opts.Logger, sessions: map[string]*session{}, conns: map[*conn]struct{}{},
		served: make(chan struct{}), release: func() {}, heavy: make(chan struct{}, heavySlots)}
	if h.log == nil {
		h.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h.notices = h.newNotices()
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
		_ = h.closeStore() // the start's own error is the one to report
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
	mux.HandleFunc(hostproof.Path, h.serveProof)
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
		j, fl, err := h.openDurableJournal()
		if err != nil {
			return err
		}
		h.j, h.fl = j, fl
	}
	if h.opts.wrapJournal != nil {
		h.j = h.opts.wrapJournal(h.j)
	}
	if h.opts.NoAuth {
		h.proofKey = existingToken(h.dataDir)
		return nil
	}
	tok, err := loadOrCreateToken(h.dataDir)
	if err != nil {
		_ = h.closeStore() // the start's own error is the one to report
		return err
	}
	h.token, h.proofKey = tok, tok
	return nil
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

func nowMs() int64 { return time.Now().UnixMilli() }
