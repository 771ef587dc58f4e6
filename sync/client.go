// Package sync is Lookout's connection to a session host: a WebSocket
// JSON-RPC client that subscribes to one session, resumes from its cursor,
// detects gaps and pages them in, reconnects with backoff, publishes how
// fresh its picture is, submits and reconciles the user's commands, and
// keeps an on-disk replica of the last synchronized range.
//
// One goroutine (Run) owns the fold (a model.State). Every other method is
// safe for concurrent use and never blocks on the network: it enqueues
// work for that goroutine. What the client knows is published as an
// immutable Picture (Current), with a coalesced signal on Updates after
// each batch of changes.
//
// The package knows nothing of Bubble Tea; see docs/sync.md for the
// decisions it makes.
package sync

import (
	"context"
	"crypto/tls"
	"errors"
	gosync "sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/model"
)

// FreshState names how current the published picture is.
type FreshState string

// The freshness states, in the order a banner cares about them.
const (
	// Connecting: the first connection attempt is under way; what is shown
	// (if anything) came from the replica cache.
	Connecting FreshState = "connecting"
	// Live: connected, caught up, and folding live events.
	Live FreshState = "live"
	// Reconnecting: offline; the next attempt is due at NextAttempt.
	Reconnecting FreshState = "reconnecting"
	// Updating: connected, catching up: the picture may be behind.
	Updating FreshState = "updating"
	// Error: a persistent refusal (bad token, unknown session, a host that
	// breaks the protocol); Err says which. Background retries continue
	// silently with backoff.
	Error FreshState = "error"
	// Retrying: a retry the user pressed (Retry) after an Error is in
	// flight (Err is the refusal it retries); it ends in Live or back in
	// Error. A retry pressed while Reconnecting or Updating only makes
	// the attempt start now.
	Retrying FreshState = "retrying"
)

// Freshness is the one state a banner renders, with the data it needs.
type Freshness struct {
	State FreshState
	// NextAttempt is when the next connection attempt is due (Reconnecting
	// and Error; zero when an attempt is under way).
	NextAttempt time.Time
	// Attempt counts consecutive failed attempts since the last success.
	Attempt int
	// Err is the last error, human readable (Error, Reconnecting,
	// Retrying).
	Err string
	// Reason classifies Err for programs: one of the Reason* constants,
	// or "" when there is no error.
	Reason string
}

// Reasons for Freshness.Reason.
const (
	ReasonAuth        = "auth"        // the host refused the token (401) or the origin (403)
	ReasonEndpoint    = "endpoint"    // no session host at that URL (404)
	ReasonNoSession   = "no-session"  // the host does not know the session, or has none
	ReasonProtocol    = "protocol"    // the host broke the protocol or refused initialize
	ReasonUnreachable = "unreachable" // connection refused, lost, timed out
	ReasonUnproven    = "unproven"    // the local host's address holds no host that could prove it is one (*UnprovenHostError)
)

// Picture is what the client publishes: immutable, cheap to copy, safe
// to read from any goroutine.
type Picture struct {
	// View is the fold's picture; never nil after New (an empty view, or
	// the replica cache's range painted before the network answers).
	View      *model.View
	Freshness Freshness
	// Returned holds the most recent retirements whose text is the user's
	// to take back (GivesBack): unqueued and gave up (r.Reason.ReturnsText:
	// back to the composer), rejected and launch failed (Detail says why:
	// shown as a failed entry), oldest first, at most 32. They are numbered: Returned[i] has number
	// ReturnedBase+i, numbers start at 1 and never repeat, so a consumer
	// that remembers the highest number it took takes each exactly once.
	Returned     []model.Retirement
	ReturnedBase uint64
	// Answers are the approval answers given here that the host has not
	// confirmed yet, by approval id: Sent false while the answer waits for
	// a connection (it is sent once one has caught up), true once sent.
	Answers []Answer
	// Errors are recent typed fold and protocol errors (diagnostics line),
	// oldest first, at most 16.
	Errors []string
	// ErrorCount is how many errors the client has recorded since New:
	// Errors[i] is error number ErrorCount-len(Errors)+1+i. A consumer
	// that remembers the count it has seen reports each error once
	// (ErrorsSince).
	ErrorCount uint64
	// Durability is the host's profile from initialize: "durable",
	// "ephemeral", or "" before the first initialize.
	Durability string
	// AgentCommands is true once the host said, in initialize's features,
	// that turn/submit runs agent commands (SubmitCommand).
	AgentCommands bool
	// Steer is true once the host said, in initialize's features, that
	// its agent takes input into a running turn (Client.Steer).
	Steer bool
	// HistoryLoading is true while a `before` page is in flight.
	HistoryLoading bool
	// Start is the session's first items while a hole separates them from
	// View (LoadStart): every item positioned below the hole, in order.
	// nil when there is no such window; once LoadForward reaches View the
	// window joins it and View starts at the session's start.
	Start *model.View
	// StartLoading is true while a page of the start window is in flight.
	StartLoading bool
	// HostURL is the URL the client dials now: Options.URL, or where the
	// local host moved to (Options.FollowLocalHost).
	HostURL string
	// SessionID is the session followed ("" until chosen).
	SessionID string
	// CachePainted is true while the View shows the replica cache's range
	// and no network state has replaced or extended it yet.
	CachePainted bool
}

// Client follows one session on one host. Create it with New, drive it with
// Run, read it with Current and Updates.
type Client struct {
	opts Options
	url  atomic.Pointer[string] // cred.URL
	cred Credential             // what is sent to url (ResolveCredential); the loop's

	tls *tls.Config // for wss:// (Options.TLSCAFile); nil: the system's roots

	updates chan struct{}
	wake    chan struct{}
	cur     atomic.Pointer[Picture]
	running atomic.Bool

	mu         gosync.Mutex
	ops        []func()
	settled    map[string]model.Retirement // commandId -> retirement (bounded)
	settledIDs []string

	// Everything below is owned by the Run goroutine (or by New before Run).
	loop *loopState

	stats clientStats
}

// clientStats count what the client did, for tests and benchmarks.
type clientStats struct {
	gaps        atomic.Int64 // gaps detected by the live gate
	afterPages  atomic.Int64 // view/page after answers accepted
	staleBefore atomic.Int64 // before pages discarded as stale
	startPages  atomic.Int64 // start-window pages folded
	startCuts   atomic.Int64 // start-window pages asked again, narrower
	replays     atomic.Int64 // command/replay requests sent
	submits     atomic.Int64 // turn/submit requests sent
	snapshots   atomic.Int64 // subscribe answers delivered as snapshot
	suffixes    atomic.Int64 // subscribe answers delivered as suffix
}

// maxSettled bounds the retirement memory behind Settlement.
const maxSettled = 256

// New validates opts, resolves the token (Options.Credential: a URL or
// token refused before dialling is a *CredentialError) and paints the
// replica cache's range (if any) so Current has something to show before
// Run connects.
func New(opts Options) (*Client, error) {
	opts = opts.withDefaults()
	cred, err := opts.Credential()
	if err != nil {
		return nil, err
	}
	tlsConf, err := opts.tlsConfig()
	if err != nil {
		return nil, err
	}
	c := &Client{
		opts:    opts,
		cred:    cred,
		tls:     tlsConf,
		updates: make(chan struct{}, 1),
		wake:    make(chan struct{}, 1),
		settled: map[string]model.Retirement{},
	}
	c.url.Store(&cred.URL)
	c.loop = newLoopState(c)
	c.loop.loadCache()
	c.loop.publish()
	return c, nil
}

// URL is the normalised WebSocket URL the client dials (it changes when
// Options.FollowLocalHost follows the local host to a new address).
func (c *Client) URL() string { return *c.url.Load() }

// Updates is a capacity-1 channel that receives a value after the
// published Picture changed; several changes coalesce into one signal.
func (c *Client) Updates() <-chan struct{} { return c.updates }

// Current returns the latest published Picture. It is immutable and cheap.
func (c *Client) Current() Picture { return *c.cur.Load() }

// Run connects, subscribes, resumes and reconnects with backoff until ctx
// ends; it then writes the replica cache and returns nil. It returns an
// error only for a second concurrent Run.
func (c *Client) Run(ctx context.Context) error {
	if !c.running.CompareAndSwap(false, true) {
		return errors.New("sync: Run is already running")
	}
	defer c.running.Store(false)
	c.loop.run(ctx)
	return nil
}

// enqueue hands fn to the Run goroutine.
func (c *Client) enqueue(fn func()) {
	c.mu.Lock()
	c.ops = append(c.ops, fn)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *Client) takeOps() []func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops := c.ops
	c.ops = nil
	return ops
}

// Submit sends a prompt. It returns the fresh UUIDv7 commandId at once; the
// pending entry appears in the next published View, and the submission is
// sent (and retried with the same commandId) as the connection allows.
func (c *Client) Submit(text string) (commandID string) {
	return c.SubmitCommand(text, "")
}

// SubmitCommand is Submit for a turn that runs the agent command name
// (one of the session's "commands" values, without its slash) instead of
// a prompt; text is the line the user typed. A name "" is a prompt. Ask
// only a host whose initialize features say agentCommands (Features): an
// older host would run text as a prompt.
func (c *Client) SubmitCommand(text, name string) (commandID string) {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	commandID = id.String()
	c.enqueue(func() { c.loop.submit(commandID, text, name) })
	return commandID
}

// Unqueue asks the host to take back a queued submission (turn/unqueue).
// The pending entry retires when turn/unqueued folds in.
func (c *Client) Unqueue(commandID string) {
	c.enqueue(func() { c.loop.unqueue(commandID) })
}

// Interrupt asks the host to stop the active turn, if there is one.
func (c *Client) Interrupt() { c.enqueue(func() { c.loop.interrupt() }) }

// Respond answers an approval request with a decision it offers
// (model.Decision.IsAnswer: approve, deny or approveForSession). Given
// offline, the answer waits (Picture.Answers) and is sent once the next
// connection has caught up, if the approval is still pending then.
func (c *Client) Respond(approvalID string, decision model.Decision) {
	c.enqueue(func() { c.loop.respond(approvalID, decision, "") })
}

// Deny refuses an approval and tells the agent reason: what to do
// instead ("" says nothing more, as Respond with deny). The host refuses
// a reason longer than model.MaxReasonBytes (the error is reported in
// Picture.Errors). Given offline, it waits as Respond's answers do.
func (c *Client) Deny(approvalID, reason string) {
	c.enqueue(func() { c.loop.respond(approvalID, model.DecisionDeny, reason) })
}

// LoadOlder asks for one `before` page of older history, if the held range
// has older history and no such page is in flight. The page is accepted
// only if the held history start has not changed when it arrives.
func (c *Client) LoadOlder() { c.enqueue(func() { c.loop.loadOlder() }) }

// LoadStart asks for the session's first items when the held range does
// not reach them (View.HasOlder): one `before` page, published as
// Picture.Start, without paging back through the items between.
func (c *Client) LoadStart() { c.enqueue(func() { c.loop.loadStart() }) }

// LoadForward extends the start window downwards by one page (scrolling
// down from the start); the window joins View when it reaches it.
func (c *Client) LoadForward() { c.enqueue(func() { c.loop.loadForward() }) }

// Retry is the user-pressed retry: it resets the backoff and attempts at
// once. After an Error the published state becomes Retrying until the
// attempt reaches Live or fails back to Error; while Reconnecting it stays
// Reconnecting (the attempt under way, the last error kept).
func (c *Client) Retry() { c.enqueue(func() { c.loop.retryNow() }) }

// Focus reports that the terminal regained focus: the backoff resets (an
// offline client attempts at once) and a nominally connected socket is
// probed; one that does not answer within 3 s is dropped and reconnected.
func (c *Client) Focus() { c.enqueue(func() { c.loop.focus() }) }

// SetLooking says whether the user looks at the session now (it is on
// screen and the terminal is focused). The host, when it takes
// session/focus, sends no notice for a session its user looks at; the
// client tells it again on every new connection.
func (c *Client) SetLooking(on bool) { c.enqueue(func() { c.loop.setLooking(on) }) }

// Inspect runs fn on the client's goroutine with the fold, for callers that
// need more than the View (the canonical encoding, turn records). fn must
// not retain or modify st. Inspect returns ctx.Err() if ctx ends first;
// it works only while Run is running.
func (c *Client) Inspect(ctx context.Context, fn func(st *model.State)) error {
	done := make(chan struct{})
	c.enqueue(func() {
		defer close(done)
		fn(c.loop.st)
	})
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Settlement reports how a submission of this client left the pending
// family (joined, rejected, unqueued, launch failed, gave up), if it did.
// The most recent 256 settlements are remembered.
func (c *Client) Settlement(commandID string) (model.Retirement, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.settled[commandID]
	return r, ok
}

// CommandStatus is the host's answer to command/replay (docs/protocol.md
// §7): how one command stands and, once its turn has ended, how the turn
// ended.
type CommandStatus struct {
	// State is "unknown" (never admitted), "pending", "queued", "started"
	// or "settled".
	State  string
	TurnID string
	// Settlement is a settled command's kind: "userMessage" (ItemID),
	// "rejected" (Reason), "unqueued" or "launchFailed".
	Settlement string
	ItemID     string
	Reason     string
	// TurnStatus is "completed", "failed" or "stopped" once the command's
	// turn has ended and the host says so, with TurnError when the turn
	// ended with one; "" while the turn runs, and from hosts that predate
	// these members.
	TurnStatus string
	TurnError  *model.TurnError
}

// ErrNotConnected: the client has no reconciled connection to ask on (or
// lost it before the answer came); ask again once it is live.
var ErrNotConnected = errors.New("sync: not connected to the host")

// RequestError is an error answer (or a malformed one) to a request the
// caller made through the Client.
type RequestError struct {
	Method  string
	Code    int
	Message string
}

func (e *RequestError) Error() string { return e.Method + ": " + e.Message }

type replayReply struct {
	st  CommandStatus
	err error
}

// ReplayCommand asks the host how one command stands (command/replay), for
// example how the turn of a settled command ended when the client learnt
// of its end only through a snapshot (which carries no turn outcomes). It
// needs a live connection: offline, or if the connection ends before the
// answer, it returns ErrNotConnected. It returns ctx.Err() if ctx ends
// first, and works only while Run is running.
func (c *Client) ReplayCommand(ctx context.Context, commandID string) (CommandStatus, error) {
	ch := make(chan replayReply, 1)
	c.enqueue(func() { c.loop.replayFor(commandID, ch) })
	select {
	case r := <-ch:
		return r.st, r.err
	case <-ctx.Done():
		return CommandStatus{}, ctx.Err()
	}
}

func (c *Client) recordSettled(rs []model.Retirement) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rs {
		if _, ok := c.settled[r.CommandID]; !ok {
			c.settledIDs = append(c.settledIDs, r.CommandID)
		}
		c.settled[r.CommandID] = r
	}
	for len(c.settledIDs) > maxSettled {
		delete(c.settled, c.settledIDs[0])
		c.settledIDs = c.settledIDs[1:]
	}
}
