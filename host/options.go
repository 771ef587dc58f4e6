package host

import (
	"log/slog"
	"time"

	"github.com/lookout-sh/lookout/internal/datadir"
)

// Defaults and bounds of the reference host. They are part of its documented
// behaviour (docs/host.md) and are reported in the initialize result's
// features.
const (
	// DefaultAddr is where a host listens when Options.Addr is empty.
	DefaultAddr = "127.0.0.1:7777"
	// WSPath is the WebSocket endpoint.
	WSPath = "/v1/ws"
	// FieldBound is the largest string an item may carry, in bytes, but
	// for whole text (TextBound). Longer values are cut on a UTF-8
	// boundary and listed in "truncated".
	FieldBound = 64 << 10
	// TextBound is the largest whole text an item may carry, in bytes: an
	// agent message's text, each reasoning summary part (wholeText). It is
	// the client's own field bound, so a client never cuts what this host
	// sends.
	TextBound = 1 << 20
	// MaxFrameBytes is the largest frame the host reads; a bigger one closes
	// the connection with 1009.
	MaxFrameBytes = 4 << 20
	// PageBytes is the approximate byte bound of a page or snapshot.
	PageBytes = 1 << 20
	// MaxQueuedTurns is how many turns a session admits behind its active
	// turn; a submission beyond it is answered -32001 (backpressured).
	MaxQueuedTurns = 64
	// DefaultOutboundQueue is the per-connection outbound queue bound, in
	// messages, when Options.OutboundQueue is zero.
	DefaultOutboundQueue = 4096
	// DefaultOutboundBytes is the per-connection outbound queue bound, in
	// bytes, when Options.OutboundBytes is zero: every frame queued or
	// being written counts, answers included.
	DefaultOutboundBytes = 8 << 20
	// DefaultPageLimit is the limit of view/page and session/subscribe when
	// the request names none; MaxPageLimit caps what a request may ask.
	DefaultPageLimit = 200
	MaxPageLimit     = 1000
	// TitleBound is the longest session title, in bytes: a session/create
	// title and a "title" session/state value are cut to it on a UTF-8
	// boundary, and session/list cuts titles journaled before the bound.
	TitleBound = 256
	// DefaultListLimit is how many sessions one session/list answer holds
	// when the request names no limit (MaxPageLimit caps what it may ask);
	// an answer also stops at about PageBytes.
	DefaultListLimit = 100
	// DefaultMaxSessions is how many sessions a host holds when
	// Options.MaxSessions is zero; session/create beyond it is answered
	// -32001 (backpressured) with data.reason "tooManySessions".
	DefaultMaxSessions = 10000
	// MaxRejections is how many durable rejections (turn/submit -32010) a
	// session remembers: the newest. An older rejected commandId is then
	// unknown to command/replay, and submitting it again is judged anew.
	MaxRejections = 1000
	// PingInterval is how often the host pings each connection; a
	// connection silent for ReadTimeout is dropped.
	PingInterval = 15 * time.Second
	ReadTimeout  = 45 * time.Second
)

// Options configure a Host. The zero value is a durable host with the demo
// agent on DefaultAddr, its journal and token in DefaultDataDir.
type Options struct {
	// Addr is the listen address; "" means DefaultAddr and "127.0.0.1:0"
	// picks a free port (read it back with Host.Addr).
	Addr string
	// DataDir holds the durable journal (journal.db), the token file and a
	// lock file. "" means DefaultDataDir() for a durable host; an ephemeral
	// host with DataDir "" keeps its token in memory only, and one with a
	// DataDir keeps only its token there (so same-machine clients can read
	// it), never session data.
	DataDir string
	// Ephemeral keeps sessions in memory only: nothing survives the process.
	Ephemeral bool
	// NoAuth serves without a bearer token. Start refuses it unless Addr is
	// a loopback address.
	NoAuth bool
	// Agent names the agent that runs turns: "demo" (also when empty).
	Agent string
	// AgentImpl, when non-nil, runs turns instead of the demo agent; Agent
	// is then its name, reported in initialize's features (a bridge such
	// as "codex"). It must be safe for concurrent use by several sessions.
	AgentImpl Agent
	// Pace is the delay between the demo agent's stream steps; 0 streams
	// as fast as the host can emit.
	Pace time.Duration
	// Latency delays the answer to every request by this much, to show
	// (in demos and tests) how clients behave on a slow network: a
	// reconnecting client shows "Updating messages" for a while. 0 is off.
	Latency time.Duration
	// Logger receives the host's diagnostics; nil discards them.
	Logger *slog.Logger
	// NotifyCmd, when set, is run (sh -c) for each Notice: a session that
	// needs its user (notify.go). The notice is in its environment.
	NotifyCmd string
	// NotifyURL, when set, is posted each Notice, in ntfy's form.
	NotifyURL string
	// DemoSession creates, on first start (no sessions in the journal), a
	// session holding a short scripted history that shows every item kind.
	DemoSession bool
	// OutboundQueue bounds each connection's outbound queue, in messages;
	// 0 means DefaultOutboundQueue.
	OutboundQueue int
	// MaxSessions bounds how many sessions the host holds (created through
	// session/create or CreateSession); 0 means DefaultMaxSessions.
	MaxSessions int
	// OutboundBytes bounds each connection's outbound queue, in bytes of
	// frames queued or being written (answers included); 0 means
	// DefaultOutboundBytes. A frame alone in the queue is always accepted,
	// so the bound holds up to one frame (at most about PageBytes for an
	// answer). Beyond it the same policy applies as for OutboundQueue:
	// sheddable messages are dropped, and a message that must not be shed
	// closes the connection with 1013.
	OutboundBytes int
	// TotalOutboundBytes bounds the bytes queued outbound across every
	// connection; 0 means DefaultTotalOutboundBytes. Past it sheddable
	// messages are dropped and the connection holding the most is closed
	// with 1013 (budget.go).
	TotalOutboundBytes int
	// MaxConns bounds the open connections; 0 means DefaultMaxConns. An
	// upgrade past it is answered 503.
	MaxConns int
	// InvalidFrames is the burst of invalid frames (unparsable, binary,
	// unknown method) a connection may send before the rate limit (16 a
	// second) applies and a flood closes it with 1008; 0 means 64, a
	// negative value no limit (a fuzzer's connection).
	InvalidFrames int
	// SendBuffer, when positive, sets each connection's kernel send buffer
	// (SO_SNDBUF) in bytes. Kernels buffer megabytes for a peer that stops
	// reading; a small buffer makes the outbound queue policy (shed deltas,
	// then close with 1013) engage sooner and bounds memory per stalled
	// client. 0 keeps the OS default.
	SendBuffer int
	// wrapJournal, set only by tests (export_test.go), wraps the journal
	// to inject its faults.
	wrapJournal func(journal) journal
	// takeoverGate, set only by tests (export_test.go), is called when a
	// takeover has retired a session's replica, before it restores the
	// session.
	takeoverGate func(sid string)
	// claimedGate, set only by tests, is called when a fleet host has
	// acquired and claimed a session, before it counts the lease as held.
	claimedGate func(sid string)
	// TLSCert and TLSKey, both set, are PEM files of a certificate (chain)
	// and its private key: the host then serves wss:// (TLS 1.2 or later)
	// and its URL and recorded address say wss://. Start fails when only
	// one is set or they cannot be loaded. Without them the host serves
	// plain ws:// and warns (in its log) when the address is not
	// loopback.
	TLSCert, TLSKey string
	// FieldBound, when positive, replaces the package's FieldBound as the
	// largest string (prompt, tool output, agent-supplied member) the
	// host's items carry, and raises TextBound to it when it is larger
	// (it never lowers the whole-text bound). Only benchmark hosts raise
	// it (lookout serve --bench-stream holds its file whole); 0 means
	// FieldBound.
	FieldBound int
	// SyncFull makes every journal commit wait for fsync (SQLite
	// synchronous=FULL). By default commits survive a process crash
	// (kill -9) but the last few may be lost on power failure.
	SyncFull bool
	// Journal, when set, keeps the durable journal in NATS JetStream
	// instead of SQLite (docs/fleet.md): a comma-separated list of NATS
	// URLs (tls:// for TLS). DataDir still holds the token and the lock.
	Journal string
	// NATSCreds is a NATS credentials file (JWT and NKey seed) for
	// Journal; "" connects without one.
	NATSCreds string
	// NATSInsecurePlaintext lets Journal name a NATS server on another
	// machine that offers no TLS; without it such a server is refused, so
	// journal contents never cross the network in the clear.
	NATSInsecurePlaintext bool
	// JournalNamespace prefixes the JetStream stream, subjects and
	// buckets of Journal; "" means DefaultJournalNamespace.
	JournalNamespace string
	// JournalReplicas is the replica count of a stream or bucket this host
	// creates; 0 means 1. Existing ones keep theirs.
	JournalReplicas int
	// FleetHostID, with Journal, makes the host a member of a fleet
	// sharing the journal (docs/fleet.md): it loads only the sessions whose
	// writer lease it takes, takes over those of a dead host, and lists its
	// sessions in the fleet directory. It names the host (letters, digits,
	// '-', '_'), unique in the fleet.
	FleetHostID string
	// FleetLeaseTTL is how long a writer lease outlives its last renewal;
	// 0 means fleet.DefaultLeaseTTL. The fleet's first host sets it.
	FleetLeaseTTL time.Duration
	// ReplicaIdle is how long a fleet host keeps a replica of another
	// host's session that no client subscribes to or asks about; 0 means
	// DefaultReplicaIdle.
	ReplicaIdle time.Duration
}

// bounds are the host's bounds of an item's strings (boundsFor).
func (h *Host) bounds() fieldBounds { return boundsFor(h.opts.FieldBound) }

// DefaultDataDir is the data directory of a host started without one:
// "$XDG_STATE_HOME/lookout" (on Linux usually ~/.local/state/lookout).
func DefaultDataDir() string { return datadir.Default() }

// AgentDataDir is the default data directory of a host running the named
// agent: DefaultDataDir for the demo agent, and a directory of its own
// below it for each real agent.
func AgentDataDir(agent string) string { return datadir.ForAgent(agent) }

// LocalDataDirs lists the default data directories of every agent's host
// on this machine that exist: DefaultDataDir first.
func LocalDataDirs() []string { return datadir.Local() }

// TokenPath is the file, inside dataDir, where a host keeps its bearer
// token (mode 0600). Clients on the same machine read the token from it.
func TokenPath(dataDir string) string { return datadir.Token(dataDir) }

// JournalPath is the SQLite journal of a durable host in dataDir.
func JournalPath(dataDir string) string { return datadir.Journal(dataDir) }
