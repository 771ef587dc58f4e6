package claude

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// turnState is one running turn as the dispatch goroutine folds Claude
// Code's messages into it. mu guards it against approval goroutines.
type turnState struct {
	s   *session
	t   *host.Turn
	ctx context.Context

	mu         sync.Mutex
	blocks     map[blockKey]*openItem        // streamed content blocks, by message and index
	tools      map[string]*openItem          // open tool items, by tool_use id
	approvals  map[string]context.CancelFunc // pending permission prompts, by request id
	compaction string                        // the open contextCompaction item
	msgID      string                        // the message streaming now
	msgInput   int64                         // its context on the input side
	lastError  *apiError
	outcome    *bridge.Outcome // the turn's result, once
}

// blockKey names a content block of a streamed message.
type blockKey struct {
	msg   string
	index int
}

// openItem is a content block or tool call the turn has opened in
// Lookout.
type openItem struct {
	id     string // Lookout item id
	kind   string
	status string
	block  string // the content block's type
	key    blockKey
	tool   string // the tool's name
	toolID string // the tool_use id

	input         strings.Builder // a tool's input JSON, as streamed
	streamedInput bool
	inputDone     bool
	proposed      []any           // a file tool's proposed change
	todos         json.RawMessage // a TodoWrite's input, for the plan
}

// apiError is a failed model request Claude Code gave up on.
type apiError struct {
	status  int
	typ     string
	message string
}

func newTurnState(s *session, t *host.Turn, ctx context.Context) *turnState {
	return &turnState{s: s, t: t, ctx: ctx, blocks: map[blockKey]*openItem{}, tools: map[string]*openItem{},
		approvals: map[string]context.CancelFunc{}, outcome: bridge.NewOutcome()}
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
	for _, cancel := range ts.approvals {
		cancel()
	}
}

// handle folds one message of the turn.
func (ts *turnState) handle(m *message) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.outcome.Finished() {
		if m.Type == "control_request" {
			ts.s.refuse(m)
		}
		return
	}
	var err error
	switch m.Type {
	case "stream_event":
		if !m.subagent() {
			err = ts.streamEvent(m.Event)
		}
	case "assistant":
		if !m.subagent() {
			err = ts.assistant(m.Raw)
		}
	case "user":
		// A subagent's tool results are read too: a tool call of its that
		// asked permission is shown.
		err = ts.user(m.Raw, m.subagent())
	case "system":
		err = ts.system(m)
	case "result":
		ts.result(m.Raw)
	case "control_request":
		err = ts.controlRequestLocked(m)
	case "control_cancel_request":
		if cancel := ts.approvals[m.RequestID]; cancel != nil {
			delete(ts.approvals, m.RequestID) // withdrawn: Claude Code wants no answer
			cancel()
		}
	}
	if err != nil {
		ts.s.a.log.Warn("claude code message not folded", "session", ts.s.sess.ID(), "type", m.Type, "err", err)
		bridge.NotShown(ts.t, "Claude Code's "+m.Type+" message", err)
	}
}

// toRunningLocked moves a tool that has not started running yet to
// running.
func (ts *turnState) toRunningLocked(oi *openItem) {
	if oi.kind != model.KindToolCall || (oi.status != model.StatusReady && oi.status != model.StatusWaitingUser) {
		return
	}
	if ts.t.UpdateItem(oi.id, model.StatusRunning, nil) == nil {
		oi.status = model.StatusRunning
	}
}

// stopStreamedLocked ends the items of the blocks still streaming as
// stopped, keeping what streamed.
func (ts *turnState) stopStreamedLocked() {
	for key, oi := range ts.blocks {
		_ = ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
		delete(ts.blocks, key)
		if oi.toolID != "" {
			delete(ts.tools, oi.toolID)
		}
	}
}

// stopToolsLocked ends the tool calls that got no result as stopped:
// nothing says they ran.
func (ts *turnState) stopToolsLocked() {
	for id, oi := range ts.tools {
		_ = ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
		delete(ts.tools, id)
		if oi.key.msg != "" {
			delete(ts.blocks, oi.key)
		}
	}
}
