package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/lookout-sh/lookout/internal/kvlist"
)

// jsJournal keeps the journal in NATS JetStream (docs/fleet.md): each
// session's appends are messages on its own subject of one stream, and
// sessions, meta values and rejections are key-value entries. A session
// has one writer: every append expects the subject's last sequence it
// knows, so a second writer's append fails with errJournalNotWriter.
type jsJournal struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	names  jsNames

	sessKV, metaKV, rejKV jetstream.KeyValue

	// writer names this journal in its commits (Lookout-Writer) and in
	// their message ids: the fleet host's id, if any, and a random tag of
	// this run, so that no two writers ever send the same message id.
	writer string
	// stopBy, once set (unix nanoseconds), is when every operation ends.
	stopBy atomic.Int64

	mu   sync.Mutex
	logs map[string]*sessionLog
}

// JetStreamConfig selects and shapes a JetStream journal.
type jetStreamConfig struct {
	URLs  string // comma-separated NATS URLs
	Creds string // a NATS credentials file, or ""
	// Secure are the connection options natsSecurity chose.
	Secure    []nats.Option
	Namespace string // prefixes the stream, subjects and buckets; "" means "lookout"
	Replicas  int    // replicas of a stream or bucket this host creates; 0 means 1
	HostID    string // the fleet host's id, or ""
}

// jsNames are the JetStream names of one namespace.
type jsNames struct {
	namespace                                    string
	stream, subjects, sessions, meta, rejections string
	prefix                                       string // of session subjects
}

func namesFor(ns string) jsNames {
	return jsNames{
		namespace: ns,
		stream:    ns + "_journal", subjects: ns + ".j.>", prefix: ns + ".j.",
		sessions: ns + "_sessions", meta: ns + "_meta", rejections: ns + "_rejections",
	}
}

// natsPingInterval is how often a host pings the NATS server it is
// connected to: a server that stops answering (paused, cut off) is left
// for another of the cluster within about three intervals, not the
// client library's default two minutes, during which every journal
// request would time out.
const natsPingInterval = 2 * time.Second

// DefaultJournalNamespace names the stream and buckets of a JetStream
// journal when Options.JournalNamespace is empty.
const DefaultJournalNamespace = "lookout"

// jsOpTimeout bounds each journal operation against JetStream; a cluster
// electing a new leader answers well within it.
const jsOpTimeout = 15 * time.Second

var (
	// errJournalNotWriter: another journal appended to the session since
	// this one last did; this host is no longer its writer.
	errJournalNotWriter = errors.New("journal: another host appended to this session")
	errBadNamespace     = errors.New("journal: a JetStream namespace is letters, digits, '-' and '_'")
	b64                 = base64.RawURLEncoding
	namespaceRE         = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

func openJetStreamJournal(cfg jetStreamConfig) (*jsJournal, error) {
	ns := cfg.Namespace
	if ns == "" {
		ns = DefaultJournalNamespace
	}
	if !namespaceRE.MatchString(ns) {
		return nil, fmt.Errorf("%w: %q", errBadNamespace, ns)
	}
	opts := append([]nats.Option{nats.Name("lookout host"), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.PingInterval(natsPingInterval), nats.MaxPingsOutstanding(2)}, cfg.Secure...)
	if cfg.Creds != "" {
		opts = append(opts, nats.UserCredentials(cfg.Creds))
	}
	nc, err := nats.Connect(cfg.URLs, opts...)
	if err != nil {
		return nil, fmt.Errorf("journal: %w%s", err, tlsHint(cfg.Secure))
	}
	j := &jsJournal{nc: nc, names: namesFor(ns), logs: map[string]*sessionLog{}, writer: writerTag(cfg.HostID)}
	if err := j.ensure(max(cfg.Replicas, 1)); err != nil {
		nc.Close()
		return nil, fmt.Errorf("journal %s: %w", cfg.URLs, err)
	}
	return j, nil
}

// ensure opens the stream and buckets, creating those missing. Existing
// ones are used as they are: their limits are the operator's.
// A request lost while the cluster changes leaders is asked again.
func (j *jsJournal) ensure(replicas int) error {
	var err error
	if j.js, err = jetstream.New(j.nc); err != nil {
		return err
	}
	deadline := time.Now().Add(2 * jsOpTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), jsOpTimeout/5)
		err = j.ensureIn(ctx, replicas)
		cancel()
		if err == nil || !retryable(err) || time.Now().After(deadline) {
			return err
		}
	}
}

func (j *jsJournal) ensureIn(ctx context.Context, replicas int) error {
	var err error
	j.stream, err = j.js.Stream(ctx, j.names.stream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		j.stream, err = j.js.CreateStream(ctx, jetstream.StreamConfig{
			Name:        j.names.stream,
			Description: "Lookout session journal: one subject per session, one message per commit",
			Subjects:    []string{j.names.subjects},
			Retention:   jetstream.LimitsPolicy,
			Discard:     jetstream.DiscardNew,
			Storage:     jetstream.FileStorage,
			Replicas:    replicas,
			AllowDirect: true,
			DenyDelete:  true,
			Duplicates:  2 * time.Minute,
		})
	}
	if err != nil {
		return fmt.Errorf("stream %s: %w", j.names.stream, err)
	}
	bucket := func(name, what string) (jetstream.KeyValue, error) {
		kv, err := j.js.KeyValue(ctx, name)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			kv, err = j.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
				Bucket: name, Description: what, Storage: jetstream.FileStorage, Replicas: replicas,
			})
		}
		if err != nil {
			return nil, fmt.Errorf("bucket %s: %w", name, err)
		}
		return kv, nil
	}
	if j.sessKV, err = bucket(j.names.sessions, "Lookout sessions: id, epoch, creation time"); err != nil {
		return err
	}
	if j.metaKV, err = bucket(j.names.meta, "Lookout host meta values"); err != nil {
		return err
	}
	j.rejKV, err = bucket(j.names.rejections, "Lookout turn/submit rejections by session and commandId")
	return err
}

// opContext bounds one journal operation: jsOpTimeout, or less once the
// host began shutting down (shutdownWithin).
func (j *jsJournal) opContext() (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(jsOpTimeout)
	if by := j.stopBy.Load(); by != 0 && by < deadline.UnixNano() {
		deadline = time.Unix(0, by)
	}
	return context.WithDeadline(context.Background(), deadline)
}

// shutdownWithin bounds every journal operation from now on by d in all:
// a host shutting down while NATS is unreachable gives up within d, and
// what it could not persist is rebuilt from the journal at its next start.
func (j *jsJournal) shutdownWithin(d time.Duration) {
	j.stopBy.Store(time.Now().Add(d).UnixNano())
}

func (j *jsJournal) durable() bool { return true }

func (j *jsJournal) subject(sid string) string { return j.names.prefix + subjectToken(sid) }

// sessionLog is what the journal knows of one session's subject.
type sessionLog struct {
	mu    sync.Mutex
	tail  tailState
	known bool // tail was read from the server or written here
	owned bool // this journal wrote the tail: it need not ask the server
	// fenced: JetStream refused this journal's append (another writer
	// appended since). It stays so until claim: the journal never
	// appends after another writer's commits on its own belief.
	fenced bool
	// uncertain: the last publish failed without a refusal; it may have
	// been stored (resolveUncertain).
	uncertain bool
	forks     forkLog // commits of a second writer's chain, skipped
	// evRefs are the commits holding events, in order, and streamRefs the
	// commits recording streamed deltas since the last drop; both cover
	// the subject up to refsTo.
	evRefs     []commitRef
	streamRefs []commitRef
	refsTo     uint64
	partial    []commitRef // parts of a split commit still unfinished
}

func (j *jsJournal) log(sid string) *sessionLog {
	j.mu.Lock()
	defer j.mu.Unlock()
	l := j.logs[sid]
	if l == nil {
		l = &sessionLog{}
		j.logs[sid] = l
	}
	return l
}

// syncTail reads the subject's last message unless this journal wrote it.
// The caller holds l.mu.
func (j *jsJournal) syncTail(ctx context.Context, sid string, l *sessionLog) error {
	if l.owned && l.known {
		return nil
	}
	m, err := j.lastMessage(ctx, sid)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		l.tail, l.known = tailState{}, true
		return nil
	}
	if err != nil {
		return err
	}
	_, t, err := refOf(m.Sequence, m.Header)
	if err != nil {
		return err
	}
	if t.at > l.tail.at {
		l.advanceTail(t)
	}
	l.known = true
	return nil
}

// lastMessage reads the subject's last message (ErrMsgNotFound: none).
func (j *jsJournal) lastMessage(ctx context.Context, sid string) (*jetstream.RawStreamMsg, error) {
	var m *jetstream.RawStreamMsg
	err := retrying(ctx, func(ctx context.Context) (err error) {
		m, err = j.stream.GetLastMsgForSubject(ctx, j.subject(sid))
		return err
	})
	return m, err
}

// advanceTail makes t the tail. A journal another writer forked may end
// on the lesser chain: the high seq and lease only ever grow. The caller
// holds l.mu.
func (l *sessionLog) advanceTail(t tailState) {
	l.tail = tailState{at: t.at, high: max(t.high, l.tail.high), lease: max(t.lease, l.tail.lease)}
}

// index adds one commit to l's refs. The parts of a split commit count
// once the last is there; a group a dead writer left unfinished is
// skipped. The caller holds l.mu.
func (l *sessionLog) index(ref commitRef) {
	if ref.at <= l.refsTo {
		return
	}
	l.refsTo = ref.at
	if ref.parts > 1 {
		if ref.part != len(l.partial)+1 {
			l.partial = l.partial[:0]
			if ref.part != 1 {
				return
			}
		}
		l.partial = append(l.partial, ref)
		if ref.part < ref.parts {
			return
		}
		for _, p := range joinPieces(l.partial) {
			l.add(p)
		}
		l.partial = l.partial[:0]
		return
	}
	l.partial = l.partial[:0]
	l.add(ref)
}

func (l *sessionLog) add(ref commitRef) {
	if n := len(l.evRefs); n > 0 && ref.last > 0 && ref.first <= l.evRefs[n-1].last {
		// A second writer's chain (journals written before fencing):
		// its seqs do not follow the session's. Skipped, so that every
		// read stays one ascending chain, and reported.
		l.forks.add(ref, l.evRefs[n-1])
		return
	}
	if ref.drop {
		l.streamRefs = nil
	}
	if ref.streams {
		l.streamRefs = append(l.streamRefs, ref)
	}
	if ref.last > 0 {
		l.evRefs = append(l.evRefs, ref)
	}
}

func (j *jsJournal) createSession(rec sessionRecord) error {
	ctx, cancel := j.opContext()
	defer cancel()
	b, err := json.Marshal(storedSession(rec))
	if err != nil {
		return err
	}
	_, err = j.sessKV.Create(ctx, subjectToken(rec.ID), b)
	return err
}

// storedSession is a session's value in the sessions bucket.
type storedSession struct {
	ID        string `json:"id"`
	Epoch     string `json:"epoch"`
	CreatedAt string `json:"createdAt"`
	Lease     int64  `json:"lease"`
}

func (j *jsJournal) sessions() ([]sessionRecord, error) {
	ctx, cancel := j.opContext()
	defer cancel()
	out, err := j.storedSessions(ctx)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i], err = j.withLease(ctx, out[i]); err != nil {
			return nil, err
		}
	}
	sortSessionRecords(out)
	return out, nil
}

// storedSessions lists the sessions bucket: the records as created, their
// leases not brought up to date.
func (j *jsJournal) storedSessions(ctx context.Context) ([]sessionRecord, error) {
	es, err := kvlist.Entries(ctx, j.sessKV, ">")
	if err != nil {
		return nil, err
	}
	out := make([]sessionRecord, 0, len(es))
	for _, e := range es {
		var s storedSession
		if err := json.Unmarshal(e.Value(), &s); err != nil {
			return nil, fmt.Errorf("journal: session %s: %w", e.Key(), err)
		}
		out = append(out, sessionRecord(s))
	}
	return out, nil
}

// withLease raises rec's lease to what the session's last commit says.
func (j *jsJournal) withLease(ctx context.Context, rec sessionRecord) (sessionRecord, error) {
	l := j.log(rec.ID)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.owned {
		l.known = false // another host may have written since this one read
	}
	err := j.syncTail(ctx, rec.ID, l)
	rec.Lease = max(rec.Lease, l.tail.lease)
	return rec, err
}

func (j *jsJournal) close() error {
	ctx, cancel := j.opContext()
	defer cancel()
	if err := j.nc.FlushWithContext(ctx); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		j.nc.Close()
		return err
	}
	j.nc.Close()
	return nil
}

// sessionRecord reads session sid's record from the sessions bucket; ok
// is false when no host created such a session.
func (j *jsJournal) sessionRecord(sid string) (rec sessionRecord, ok bool, err error) {
	ctx, cancel := j.opContext()
	defer cancel()
	var raw []byte
	err = retrying(ctx, func(ctx context.Context) error {
		e, err := j.sessKV.Get(ctx, subjectToken(sid))
		if err == nil {
			raw = e.Value()
		}
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, err
	}
	var s storedSession
	if err := json.Unmarshal(raw, &s); err != nil {
		return rec, false, fmt.Errorf("journal: session %s: %w", sid, err)
	}
	return sessionRecord(s), true, nil
}

// writerTag names one run of a journal as a writer: the fleet host's id
// (when it is one) and random hex, unique to this open.
func writerTag(hostID string) string {
	tag := newID()[:8]
	if hostID == "" {
		return tag
	}
	return hostID + "/" + tag
}
