package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
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

	mu   sync.Mutex
	logs map[string]*sessionLog
}

// JetStreamConfig selects and shapes a JetStream journal.
type jetStreamConfig struct {
	URLs      string // comma-separated NATS URLs
	Creds     string // a NATS credentials file, or ""
	Namespace string // prefixes the stream, subjects and buckets; "" means "lookout"
	Replicas  int    // replicas of a stream or bucket this host creates; 0 means 1
}

// jsNames are the JetStream names of one namespace.
type jsNames struct {
	stream, subjects, sessions, meta, rejections string
	prefix                                       string // of session subjects
}

func namesFor(ns string) jsNames {
	return jsNames{
		stream: ns + "_journal", subjects: ns + ".j.>", prefix: ns + ".j.",
		sessions: ns + "_sessions", meta: ns + "_meta", rejections: ns + "_rejections",
	}
}

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
	opts := []nats.Option{nats.Name("lookout host"), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond)}
	if cfg.Creds != "" {
		opts = append(opts, nats.UserCredentials(cfg.Creds))
	}
	nc, err := nats.Connect(cfg.URLs, opts...)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", cfg.URLs, err)
	}
	j := &jsJournal{nc: nc, names: namesFor(ns), logs: map[string]*sessionLog{}}
	if err := j.ensure(max(cfg.Replicas, 1)); err != nil {
		nc.Close()
		return nil, fmt.Errorf("journal %s: %w", cfg.URLs, err)
	}
	return j, nil
}

// ensure opens the stream and buckets, creating those missing. Existing
// ones are used as they are: their limits are the operator's.
func (j *jsJournal) ensure(replicas int) error {
	var err error
	if j.js, err = jetstream.New(j.nc); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), jsOpTimeout)
	defer cancel()
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

func opContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), jsOpTimeout)
}

func (j *jsJournal) durable() bool { return true }

func (j *jsJournal) subject(sid string) string { return j.names.prefix + subjectToken(sid) }

// sessionLog is what the journal knows of one session's subject.
type sessionLog struct {
	mu    sync.Mutex
	tail  tailState
	known bool // tail was read from the server or written here
	owned bool // this journal wrote the tail: it need not ask the server
	// evRefs are the commits holding events, in order, and streamAts the
	// commits recording streamed deltas since the last drop; both cover
	// the subject up to refsTo.
	evRefs    []commitRef
	streamAts []uint64
	refsTo    uint64
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
	m, err := j.stream.GetLastMsgForSubject(ctx, j.subject(sid))
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
		l.tail = t
	}
	l.known = true
	return nil
}

// index adds one commit to l's refs. The caller holds l.mu.
func (l *sessionLog) index(ref commitRef) {
	if ref.at <= l.refsTo {
		return
	}
	if ref.drop {
		l.streamAts = nil
	}
	if ref.streams {
		l.streamAts = append(l.streamAts, ref.at)
	}
	if ref.last > 0 {
		l.evRefs = append(l.evRefs, ref)
	}
	l.refsTo = ref.at
}

func (j *jsJournal) createSession(rec sessionRecord) error {
	ctx, cancel := opContext()
	defer cancel()
	b, err := json.Marshal(storedSession{rec.ID, rec.Epoch, rec.CreatedAt, rec.Lease})
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

func (j *jsJournal) append(sid string, evs []journalEvent, streamed []streamRecord, completed []string, lease int64) error {
	return j.write(sid, commit{events: evs, streamed: streamed, completed: completed}, lease, false)
}

func (j *jsJournal) setLease(sid string, lease int64) error {
	return j.write(sid, commit{}, lease, false)
}

// write publishes one commit on sid's subject, expecting the last
// sequence this journal knows there. A retried publish carries the same
// message id, so JetStream stores it once.
func (j *jsJournal) write(sid string, c commit, lease int64, drop bool) error {
	ctx, cancel := opContext()
	defer cancel()
	l := j.log(sid)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := j.syncTail(ctx, sid, l); err != nil {
		return err
	}
	next := l.tail
	next.lease = max(next.lease, lease)
	ref := commitRef{streams: len(c.streamed)+len(c.completed) > 0, drop: drop}
	if n := len(c.events); n > 0 {
		ref.first, ref.last = c.events[0].Seq, c.events[n-1].Seq
		next.high = max(next.high, ref.last)
	}
	if !ref.streams && !drop && ref.last == 0 && next.lease == l.tail.lease {
		return nil // nothing to store
	}
	msg := nats.NewMsg(j.subject(sid))
	msg.Header.Set(hdrFormat, strconv.Itoa(int(commitFormat)))
	if ref.last > 0 {
		msg.Header.Set(hdrFirstSeq, strconv.FormatInt(ref.first, 10))
		msg.Header.Set(hdrLastSeq, strconv.FormatInt(ref.last, 10))
	}
	msg.Header.Set(hdrHighSeq, strconv.FormatInt(next.high, 10))
	msg.Header.Set(hdrLease, strconv.FormatInt(next.lease, 10))
	if ref.streams {
		msg.Header.Set(hdrStreams, "1")
	}
	if drop {
		msg.Header.Set(hdrDrop, "1")
	}
	msg.Data = c.encode()
	id := subjectToken(sid) + ":" + strconv.FormatUint(l.tail.at, 10)
	ack, err := j.publish(ctx, msg, id, l.tail.at)
	if err != nil {
		if isWrongLastSeq(err) {
			l.owned = false
			return fmt.Errorf("%w: %v", errJournalNotWriter, err)
		}
		return err
	}
	next.at = ack.Sequence
	ref.at = ack.Sequence
	if l.refsTo == l.tail.at {
		l.index(ref) // the refs stay complete
	}
	l.tail, l.owned = next, true
	return nil
}

// publish sends msg until JetStream acknowledges it or the context ends:
// a cluster electing a leader answers nothing for a moment.
func (j *jsJournal) publish(ctx context.Context, msg *nats.Msg, id string, expect uint64) (*jetstream.PubAck, error) {
	for {
		ack, err := j.js.PublishMsg(ctx, msg, jetstream.WithMsgID(id), jetstream.WithExpectLastSequencePerSubject(expect))
		if err == nil || !retryable(err) || ctx.Err() != nil {
			return ack, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func retryable(err error) bool {
	return errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrConnectionReconnecting) || errors.Is(err, nats.ErrDisconnected)
}

func isWrongLastSeq(err error) bool {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
	}
	return false
}

func (j *jsJournal) sessions() ([]sessionRecord, error) {
	ctx, cancel := opContext()
	defer cancel()
	w, err := j.sessKV.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	var out []sessionRecord
	for e := range w.Updates() {
		if e == nil {
			break
		}
		var s storedSession
		if err := json.Unmarshal(e.Value(), &s); err != nil {
			return nil, fmt.Errorf("journal: session %s: %w", e.Key(), err)
		}
		out = append(out, sessionRecord{ID: s.ID, Epoch: s.Epoch, CreatedAt: s.CreatedAt, Lease: s.Lease})
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for i := range out {
		l := j.log(out[i].ID)
		l.mu.Lock()
		err := j.syncTail(ctx, out[i].ID, l)
		out[i].Lease = max(out[i].Lease, l.tail.lease)
		l.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	sortSessionRecords(out)
	return out, nil
}

func (j *jsJournal) close() error {
	if err := j.nc.Flush(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		j.nc.Close()
		return err
	}
	j.nc.Close()
	return nil
}
