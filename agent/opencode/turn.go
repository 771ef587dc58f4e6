package opencode

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// turnState is one running turn as the event goroutine folds OpenCode's
// events into it. mu guards it against the approval goroutines.
type turnState struct {
	s   *session
	srv *server
	t   *host.Turn
	ctx context.Context

	mu sync.Mutex
	// userMsg is the id of the user message OpenCode made of the prompt:
	// "" until it shows. Until then the turn is not armed: events of the
	// session belong to what came before (a previous turn's late idle).
	// Messages from it on (ids ascend) are the turn's.
	userMsg string
	// busy is set once OpenCode reports the armed turn busy (or failed): an
	// idle before that is a previous turn's late one.
	busy     bool
	checking bool                    // checkStarted is scheduled
	items    map[string]*openItem    // open items by part id
	calls    map[string]*openItem    // tool items by callID
	closed   map[string]bool         // parts whose item has ended
	perms    map[string]*pendingPerm // open approvals by permission id
	asks     map[string]*pendingPerm // open questions by question id
	patched  []string                // files OpenCode's patch parts listed
	shown    map[string]bool         // files a fileChange item showed
	lastErr  *ocError                // the turn's last error
	early    *ocError                // an error before the turn was armed
	aborted  bool                    // OpenCode reported the turn aborted
	outcome  *bridge.Outcome         // the turn's result, once
}

// openItem is an OpenCode part the turn has opened in Lookout.
type openItem struct {
	id       string // Lookout item id
	kind     string
	status   string
	text     strings.Builder // text (or reasoning) streamed so far: grown in place, as deltas come thousands a second
	output   string          // command output streamed so far
	inputSet bool            // the tool's parsed input has been shown
	changes  []any           // a fileChange's latest changes
	permDiff string          // the diff OpenCode showed when it asked permission
	part     *part           // the latest state of the part
}

// pendingPerm is an approval put to the user.
type pendingPerm struct {
	cancel    context.CancelFunc
	withdrawn bool // answered elsewhere: OpenCode wants no reply
}

func newTurnState(s *session, srv *server, t *host.Turn, ctx context.Context) *turnState {
	return &turnState{s: s, srv: srv, t: t, ctx: ctx, items: map[string]*openItem{}, calls: map[string]*openItem{},
		closed: map[string]bool{}, perms: map[string]*pendingPerm{}, asks: map[string]*pendingPerm{}, shown: map[string]bool{}, outcome: bridge.NewOutcome()}
}

// finish reports the turn's outcome to runTurn, once.
func (ts *turnState) finish(err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.outcome.Finish(err)
}

func (ts *turnState) cancelApprovals() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, p := range ts.perms {
		p.cancel()
	}
	for _, q := range ts.asks {
		q.cancel()
	}
}

// ours reports whether a message belongs to the turn.
func (ts *turnState) ours(messageID string) bool {
	return ts.userMsg != "" && messageID >= ts.userMsg
}

// handle folds one event of the turn's session. fresh tells, for
// message.updated, that the message was never seen before.
func (ts *turnState) handle(typ string, props json.RawMessage, fresh bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.outcome.Finished() {
		ts.rejectUnasked(typ, props)
		return
	}
	var err error
	switch typ {
	case "message.updated":
		err = ts.messageUpdated(props, fresh)
	case "message.part.updated":
		err = ts.partUpdated(props)
	case "message.part.delta":
		err = ts.partDelta(props)
	case "message.part.removed":
		ts.partRemoved(props)
	case "session.status":
		err = ts.status(props)
	case "session.idle":
		ts.idleLocked()
	case "session.error":
		err = ts.sessionError(props)
	case "permission.asked":
		err = ts.askLocked(props)
	case "permission.replied":
		ts.replied(props)
	case "question.asked":
		err = ts.askQuestionsLocked(props)
	case "question.replied", "question.rejected":
		ts.questionSettled(props)
	}
	if err != nil {
		ts.malformedLocked(typ, err)
	}
}

// malformedLocked shows an event the bridge could not fold as a warning.
func (ts *turnState) malformedLocked(typ string, err error) {
	ts.s.a.log.Warn("opencode event not folded", "session", ts.s.sess.ID(), "type", typ, "err", err)
	bridge.NotShown(ts.t, "OpenCode's "+typ, err)
}

// stopStreamedLocked ends the open messages and reasoning of the turn as
// stopped, keeping what streamed.
func (ts *turnState) stopStreamedLocked() {
	for pid, oi := range ts.items {
		if oi.kind == model.KindAgentMessage || oi.kind == model.KindReasoning {
			_ = ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
			delete(ts.items, pid)
			ts.closed[pid] = true
		}
	}
}
