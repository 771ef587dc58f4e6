package sync

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// The Run goroutine's loop: what it owns (loopState) and the one select
// that drives it. What each event does lives beside its job: link.go (dial,
// initialize, calls, drop, backoff), frames.go (frames in), catchup.go
// (subscribe, after pages, buffer drain, resync), older.go (before pages),
// actions.go (focus, retry), commands.go (the user's commands) and
// publish.go (the published Picture).

// Timing of the client's own guards.
const (
	// pageWatchdog: a catch-up page that is not answered within this long
	// means the connection made no progress: it is dropped and reconnected.
	pageWatchdog = 15 * time.Second
	// probeTimeout: how long a focus probe may take (docs/sync.md,
	// "Liveness and focus").
	probeTimeout = 3 * time.Second
	// cacheEvery: the replica cache is written at most this often.
	cacheEvery = 2 * time.Second
	// maxErrors and maxReturned bound the published lists.
	maxErrors   = 16
	maxReturned = 32
	// drainBatch: frames folded per published View at most.
	drainBatch = 512
)

// callback receives a response: the result or the error.
type callback func(result json.RawMessage, rerr *model.RPCError)

// cmdState is the client's bookkeeping for one pending submission.
type cmdState struct {
	attempts int
	inflight bool
	linkID   uint64
	retryAt  time.Time
}

type dialResult struct {
	conn conn
	err  error
}

// loopState is everything the Run goroutine owns.
type loopState struct {
	c   *Client
	o   Options
	log *slog.Logger

	clock clock    // the one clock: Options.Now and the runtime's timers
	dial  dialFunc // the one transport: nil means the WebSocket (wsDial)

	st            *model.State
	sessionID     string
	authority     bool   // st's cursor and epoch may be used to resume
	gen           uint64 // replacement generation: bumped on every state replacement
	durability    string
	agentCommands bool                   // initialize's features.agentCommands
	steer         bool                   // initialize's features.steer
	steers        map[string]*steerState // turn/steer not yet answered, by commandId
	looking       bool                   // the user looks at the session (SetLooking), told to the host
	painted       bool                   // the View shows the replica cache's range only
	listBudget    listBudget             // what the session/list in flight has read

	ctx       context.Context
	link      *link
	linkSeq   uint64
	dialCh    chan dialResult
	bo        backoff
	attempt   alarm // the next connection attempt
	refusal   string
	userRetry bool
	// refusalReason and lastReason classify refusal and lastErr.
	refusalReason string
	lastReason    string
	everConn      bool
	lastErr       string
	nextAt        time.Time

	errors       []string
	errorCount   uint64
	launchWhy    map[string]string // commandId -> why its turn failed to launch (failed.go)
	returned     []model.Retirement
	returnedBase uint64

	cmds map[string]*cmdState
	// agentCmds names the agent command of a pending entry that runs one
	// instead of a prompt (SubmitCommand), by commandId, until it retires.
	agentCmds map[string]string
	retry     alarm                   // the earliest submission retry
	answers   map[string]*answerState // approvalId -> an answer the host has not confirmed (answers.go)
	// questionAnswers: questionId -> an answer the host has not confirmed (questions.go)
	questionAnswers map[string]*questionAnswerState

	older *pageRequest
	start *startWindow // the session's first items, apart from the held range

	cache cacheState

	dirty bool

	// timeScale shrinks backoff waits in tests (0 means 1).
	timeScale float64
	// deadAfter is the silence after which a connection is dead (the
	// protocol's 45 s; tests shorten it).
	deadAfter time.Duration
}

// scaled applies the test time scale to a wait.
func (l *loopState) scaled(d time.Duration) time.Duration {
	if l.timeScale > 0 {
		return time.Duration(float64(d) * l.timeScale)
	}
	return d
}

func newLoopState(c *Client) *loopState {
	l := &loopState{
		c:               c,
		o:               c.opts,
		log:             c.opts.Logger,
		sessionID:       c.opts.SessionID,
		cmds:            map[string]*cmdState{},
		agentCmds:       map[string]string{},
		answers:         map[string]*answerState{},
		questionAnswers: map[string]*questionAnswerState{},
		steers:          map[string]*steerState{},
		returnedBase:    1,
		deadAfter:       deadAfter,
		clock:           realClock{now: c.opts.Now},
	}
	l.st = l.newState(c.opts.SessionID)
	return l
}

// newState is an empty fold for a session, with the client's bounds.
func (l *loopState) newState(sessionID string) *model.State {
	st := model.NewState(sessionID)
	st.SetLimits(l.o.limits())
	return st
}

// takeDiagnostics records the fold's non-fatal findings (a client bound
// cut, a toolCall transition out of order) as errors.
func (l *loopState) takeDiagnostics() {
	for _, d := range l.st.TakeDiagnostics() {
		l.addError(d.Error())
	}
}

// run is the Run goroutine's loop.
func (l *loopState) run(ctx context.Context) {
	l.ctx = ctx
	defer l.shutdown()
	l.startDial()
	l.publish()
	for {
		var frames <-chan []byte
		var dead <-chan struct{}
		var watchdog, probe <-chan time.Time
		if lk := l.link; lk != nil {
			frames, dead = lk.conn.Frames(), lk.conn.Dead()
			watchdog, probe = lk.watchdog.C, lk.probe.C
		}
		select {
		case <-ctx.Done():
			return
		case <-l.c.wake:
			l.runOps()
		case r := <-l.dialCh:
			l.dialCh = nil
			l.onDialed(r)
		case <-l.attempt.C:
			l.attempt.fired()
			l.startDial()
		case raw := <-frames:
			l.onFrame(raw)
			for i := 0; i < drainBatch && l.link != nil; i++ {
				select {
				case raw = <-l.link.conn.Frames():
					l.onFrame(raw)
					continue
				default:
				}
				break
			}
		case <-dead:
			// Fold what arrived before the end, then drop the link.
			for lk := l.link; l.link == lk && len(lk.conn.Frames()) > 0; {
				l.onFrame(<-lk.conn.Frames())
			}
			if l.link != nil {
				l.dropLink(l.lostError())
			}
		case <-watchdog:
			l.dropLink(&linkError{Msg: "catch-up made no progress for 15 s"})
		case <-probe:
			l.redial(&linkError{Msg: "the host did not answer a probe within 3 s"})
		case <-l.retry.C:
			l.retry.fired()
			l.retryDue()
		case <-l.cache.tick.C:
			l.cache.tick.fired()
			l.writeCache(false)
		case err := <-l.cache.doneC:
			l.cacheWritten(err)
		}
		l.takeRetirements()
		if l.dirty {
			l.publish()
		}
	}
}

func (l *loopState) runOps() {
	for _, op := range l.c.takeOps() {
		op()
		l.dirty = true
	}
}

func (l *loopState) shutdown() {
	if lk := l.link; lk != nil {
		if lk.phase.subscribed() {
			// Leaving the view: tell the host to stop sending (docs/sync.md,
			// "Leaving a session"), then close.
			lk.nextID++
			lk.conn.CloseAfter(encodeRequest(lk.nextID, "session/unsubscribe", map[string]any{"sessionId": l.sessionID}))
		}
		l.closeLink()
	}
	if ch := l.dialCh; ch != nil {
		go func() {
			if r := <-ch; r.conn != nil {
				r.conn.Close()
			}
		}()
	}
	l.attempt.stop()
	l.retry.stop()
	l.runOps()
	l.takeRetirements()
	l.writeCache(true)
	l.publish()
}
