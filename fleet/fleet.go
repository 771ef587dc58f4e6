// Package fleet is what Lookout hosts sharing one NATS JetStream need
// beyond the journal (docs/fleet.md): a directory of which host runs each
// session, a writer lease per session taken with compare-and-set, live
// frames relayed over plain NATS subjects (never stored), and requests
// forwarded to the host that writes a session.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lookout-sh/lookout/internal/jsretry"
)

// Config names a fleet and this host's place in it.
type Config struct {
	URLs  string // comma-separated NATS URLs
	Creds string // a NATS credentials file, or ""
	// Options are more connection options: the host's TLS requirement.
	Options   []nats.Option
	Namespace string // as the host's JournalNamespace; "" means "lookout"
	Replicas  int    // of a bucket this member creates; 0 means 1
	// HostID names this host in the fleet (unique, letters, digits, '-'
	// and '_'); HostURL is where its clients dial it.
	HostID, HostURL string
	// LeaseTTL is how long a host stays live without a heartbeat; 0
	// means DefaultLeaseTTL.
	LeaseTTL time.Duration
}

// DefaultLeaseTTL is how long a host's liveness outlives its last
// heartbeat: a host beats every third of it, and a dead host's sessions
// can be taken over this long after its death.
const DefaultLeaseTTL = 15 * time.Second

// Member is one host's handle on its fleet.
type Member struct {
	cfg       Config
	ns        string
	nc        *nats.Conn
	js        jetstream.JetStream
	directory jetstream.KeyValue
	hosts     jetstream.KeyValue // liveness, with the TTL (liveness.go)
	writers   jetstream.KeyValue // writer leases (lease.go)

	mu sync.Mutex
	// This host's liveness: its incarnation, the revision of its key, and
	// when the run and its last successful heartbeat started.
	inc                  string
	liveRev              uint64
	liveSince, renewedAt time.Time
	view                 fleetView // what the watches saw (watch.go)
	closed               chan struct{}
	closeOnce            sync.Once
}

var (
	errBadName = errors.New("fleet: a namespace or host id is letters, digits, '-' and '_'")
	nameRE     = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// opTimeout bounds one fleet request.
const opTimeout = 10 * time.Second

// joinTimeout bounds opening the fleet's buckets. A replicated bucket
// answers nothing until its group has elected a leader, which takes
// seconds on a loaded cluster, so Join retries within it.
const joinTimeout = 30 * time.Second

// Join connects to the fleet's NATS servers and opens (or creates) its
// directory and lease buckets.
func Join(ctx context.Context, cfg Config) (*Member, error) {
	if cfg.Namespace == "" {
		cfg.Namespace = "lookout"
	}
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = DefaultLeaseTTL
	}
	if !nameRE.MatchString(cfg.Namespace) || !nameRE.MatchString(cfg.HostID) {
		return nil, fmt.Errorf("%w: namespace %q, host %q", errBadName, cfg.Namespace, cfg.HostID)
	}
	// A server that stops answering is left for another within seconds
	// (three pings), well inside a lease TTL.
	opts := append([]nats.Option{nats.Name("lookout fleet " + cfg.HostID), nats.MaxReconnects(-1),
		nats.PingInterval(2 * time.Second), nats.MaxPingsOutstanding(2)}, cfg.Options...)
	if cfg.Creds != "" {
		opts = append(opts, nats.UserCredentials(cfg.Creds))
	}
	nc, err := nats.Connect(cfg.URLs, opts...)
	if err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	m := &Member{cfg: cfg, ns: cfg.Namespace, nc: nc, closed: make(chan struct{})}
	if err := m.open(ctx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("fleet %s: %w", cfg.URLs, err)
	}
	return m, nil
}

func (m *Member) open(ctx context.Context) error {
	var err error
	if m.js, err = jetstream.New(m.nc); err != nil {
		return err
	}
	replicas := max(m.cfg.Replicas, 1)
	ctx, cancel := context.WithTimeout(ctx, joinTimeout)
	defer cancel()
	bucket := func(cfg jetstream.KeyValueConfig) (kv jetstream.KeyValue, err error) {
		err = retrying(ctx, func(ctx context.Context) error {
			kv, err = m.js.KeyValue(ctx, cfg.Bucket)
			if errors.Is(err, jetstream.ErrBucketNotFound) {
				cfg.Storage, cfg.Replicas = jetstream.FileStorage, replicas
				kv, err = m.js.CreateKeyValue(ctx, cfg)
			}
			if errors.Is(err, jetstream.ErrBucketExists) { // another member made it meanwhile
				kv, err = m.js.KeyValue(ctx, cfg.Bucket)
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("bucket %s: %w", cfg.Bucket, err)
		}
		return kv, nil
	}
	if m.directory, err = bucket(jetstream.KeyValueConfig{
		Bucket: m.ns + "_directory", Description: "Lookout fleet: which host runs each session",
	}); err != nil {
		return err
	}
	if m.writers, err = bucket(jetstream.KeyValueConfig{
		Bucket: m.ns + "_writers", Description: "Lookout fleet: each session's writer and its incarnation",
	}); err != nil {
		return err
	}
	// A host key expires a TTL after its last heartbeat and leaves a
	// marker (kept as long again) that the other hosts' watches see.
	if m.hosts, err = bucket(jetstream.KeyValueConfig{
		Bucket: m.ns + "_hosts", Description: "Lookout fleet: each live host's incarnation",
		TTL: m.cfg.LeaseTTL, LimitMarkerTTL: max(m.cfg.LeaseTTL, time.Second),
	}); err != nil {
		return err
	}
	return m.live(ctx)
}

// HostID is this member's host id.
func (m *Member) HostID() string { return m.cfg.HostID }

// Close leaves the fleet: its watches and subscriptions end, its
// liveness expires.
func (m *Member) Close() error {
	m.closeOnce.Do(func() { close(m.closed) })
	err := m.nc.Drain()
	if errors.Is(err, nats.ErrConnectionClosed) {
		return nil
	}
	return err
}

func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, opTimeout)
}

// retrying runs op until it succeeds, fails for good or ctx ends: a
// replicated bucket electing its leader answers nothing for a moment
// (jsretry.Do).
func retrying(ctx context.Context, op func(context.Context) error) error {
	return jsretry.Do(ctx, nil, op)
}
