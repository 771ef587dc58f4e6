package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

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
	finished   bool
	done       chan error // receives the turn's outcome once
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
	proposed      []any // a file tool's proposed change
}

// apiError is a failed model request Claude Code gave up on.
type apiError struct {
	status  int
	typ     string
	message string
}

func newTurnState(s *session, t *host.Turn, ctx context.Context) *turnState {
	return &turnState{s: s, t: t, ctx: ctx, blocks: map[blockKey]*openItem{}, tools: map[string]*openItem{},
		approvals: map[string]context.CancelFunc{}, done: make(chan error, 1)}
}

// finish reports the turn's outcome to runTurn, once.
func (ts *turnState) finish(err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.finishLocked(err)
}

func (ts *turnState) finishLocked(err error) {
	if !ts.finished {
		ts.finished = true
		ts.done <- err
	}
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
	if ts.finished {
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
		if err != host.ErrTurnOver {
			ts.t.Warning(model.Warning{RequestKind: "agent", Code: "malformedAgentOutput",
				Message: fmt.Sprintf("Lookout could not show Claude Code's %s message: %v", m.Type, err)})
		}
	}
}

// usage is the token usage of one model response.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// streamEvent is a raw Anthropic streaming event Claude Code passes on.
type streamEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage usage  `json:"usage"`
	} `json:"message"`
	ContentBlock contentBlock `json:"content_block"`
	Delta        struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
	} `json:"delta"`
	Usage usage `json:"usage"`
}

// contentBlock is a content block of an assistant message.
type contentBlock struct {
	Type     string          `json:"type"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	Input    json.RawMessage `json:"input"`
}

func isToolBlock(typ string) bool {
	return typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use"
}

// streamEvent folds one streaming event: blocks open items, deltas stream
// into them.
func (ts *turnState) streamEvent(raw json.RawMessage) error {
	var ev streamEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		return err
	}
	switch ev.Type {
	case "message_start":
		ts.msgID = ev.Message.ID
		u := ev.Message.Usage
		ts.msgInput = u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
		ts.s.setContextTokens(ts.msgInput + u.OutputTokens)
		ts.s.setModel(ev.Message.Model)
	case "message_delta":
		ts.s.setContextTokens(ts.msgInput + ev.Usage.OutputTokens)
	case "content_block_start":
		return ts.blockStart(blockKey{ts.msgID, ev.Index}, ev.ContentBlock)
	case "content_block_delta":
		oi := ts.blocks[blockKey{ts.msgID, ev.Index}]
		if oi == nil {
			return nil // a block the bridge does not show
		}
		switch ev.Delta.Type {
		case "text_delta":
			return ts.t.Delta(oi.id, "text", ev.Delta.Text)
		case "thinking_delta":
			return ts.t.Delta(oi.id, "summary.0", ev.Delta.Thinking)
		case "input_json_delta":
			oi.input.WriteString(ev.Delta.PartialJSON)
			if oi.kind == model.KindToolCall && oi.status == model.StatusInputStreaming {
				oi.streamedInput = true
				return ts.t.Delta(oi.id, "inputText", ev.Delta.PartialJSON)
			}
		}
	case "content_block_stop":
		key := blockKey{ts.msgID, ev.Index}
		oi := ts.blocks[key]
		if oi == nil {
			return nil
		}
		delete(ts.blocks, key)
		if oi.toolID != "" {
			if !oi.inputDone && oi.input.Len() > 0 {
				return ts.inputDone(oi, json.RawMessage(oi.input.String()))
			}
			return nil
		}
		// Claude Code's assistant message normally completed it already.
		return ts.t.CompleteItem(oi.id, model.StatusCompleted, nil)
	}
	return nil
}

// blockStart opens the item of a streamed content block.
func (ts *turnState) blockStart(key blockKey, b contentBlock) error {
	var kind string
	fields := map[string]any{}
	switch {
	case b.Type == "text":
		kind, fields["text"] = model.KindAgentMessage, b.Text
	case b.Type == "thinking" || b.Type == "redacted_thinking":
		kind, fields["summary"] = model.KindReasoning, []string{}
		if b.Thinking != "" {
			fields["summary"] = []string{b.Thinking}
		}
	case isToolBlock(b.Type):
		if ts.tools[b.ID] != nil {
			return nil // a repeat
		}
		oi, err := ts.openTool(b.Name, b.ID, nil)
		if err != nil {
			return err
		}
		oi.block, oi.key = b.Type, key
		ts.blocks[key] = oi
		return nil
	default:
		return nil // server tool results and other blocks: not shown
	}
	id, err := ts.t.StartItem(kind, model.StatusInProgress, fields)
	if err != nil {
		return err
	}
	ts.blocks[key] = &openItem{id: id, kind: kind, status: model.StatusInProgress, block: b.Type, key: key}
	return nil
}

// openTool opens the item of a tool call: streaming its input when input
// is nil, else with it.
func (ts *turnState) openTool(name, toolID string, input json.RawMessage) (*openItem, error) {
	plan := planTool(name, input, readFile)
	id, err := ts.t.StartItem(plan.Kind, plan.Status, plan.Fields)
	if err != nil {
		return nil, err
	}
	oi := &openItem{id: id, kind: plan.Kind, status: plan.Status, block: "tool_use", tool: name, toolID: toolID, inputDone: input != nil}
	if input != nil && plan.Kind == model.KindFileChange {
		oi.proposed, _ = plan.Fields["changes"].([]any)
	}
	ts.tools[toolID] = oi
	return oi, nil
}

// inputDone shows a tool's whole input: a toolCall moves to ready with
// it, a file edit shows the change it proposes.
func (ts *turnState) inputDone(oi *openItem, input json.RawMessage) error {
	if oi.inputDone {
		return nil
	}
	oi.inputDone = true
	plan := planTool(oi.tool, input, readFile)
	if oi.kind == model.KindFileChange {
		oi.proposed, _ = plan.Fields["changes"].([]any)
		return ts.t.UpdateItem(oi.id, "", map[string]any{"changes": plan.Fields["changes"]})
	}
	fields := map[string]any{"input": plan.Fields["input"]}
	if !oi.streamedInput {
		fields["inputText"] = plan.Fields["inputText"]
	}
	status := ""
	if oi.status == model.StatusInputStreaming {
		status = model.StatusReady
	}
	if err := ts.t.UpdateItem(oi.id, status, fields); err != nil {
		return err
	}
	if status != "" {
		oi.status = status
	}
	return nil
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

// assistantMessage is Claude Code's "assistant" line: one content block
// of a model response once complete, or a synthetic message for an API
// error it gave up on.
type assistantMessage struct {
	Message struct {
		ID      string         `json:"id"`
		Model   string         `json:"model"`
		Content []contentBlock `json:"content"`
	} `json:"message"`
	IsAPIErrorMessage bool   `json:"is_api_error_message"`
	APIErrorStatus    int    `json:"api_error_status"`
	APIErrorType      string `json:"api_error_type"`
	Error             string `json:"error"`
	Aborted           bool   `json:"aborted"`
}

// assistant completes the streamed items of the blocks the message
// holds, or shows blocks that were not streamed.
func (ts *turnState) assistant(raw json.RawMessage) error {
	var am assistantMessage
	if err := json.Unmarshal(raw, &am); err != nil {
		return err
	}
	if am.IsAPIErrorMessage {
		var texts []string
		for _, b := range am.Message.Content {
			if b.Type == "text" {
				texts = append(texts, b.Text)
			}
		}
		msg := strings.Join(texts, "\n")
		typ := am.APIErrorType
		if typ == "" {
			typ = am.Error
		}
		ts.lastError = &apiError{status: am.APIErrorStatus, typ: typ, message: msg}
		_, err := ts.t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": msg})
		return err
	}
	status := model.StatusCompleted
	if am.Aborted {
		status = model.StatusStopped
	}
	msgID := am.Message.ID
	for _, b := range am.Message.Content {
		var err error
		switch {
		case b.Type == "text":
			err = ts.completeBlock(msgID, b.Type, model.KindAgentMessage, status, map[string]any{"text": b.Text})
		case b.Type == "thinking" || b.Type == "redacted_thinking":
			summary := []string{}
			if b.Thinking != "" {
				summary = []string{b.Thinking}
			}
			err = ts.completeBlock(msgID, b.Type, model.KindReasoning, status, map[string]any{"summary": summary})
		case isToolBlock(b.Type):
			oi := ts.tools[b.ID]
			if oi == nil {
				_, err = ts.openTool(b.Name, b.ID, b.Input)
			} else {
				err = ts.inputDone(oi, b.Input)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// completeBlock completes the first open streamed block of the message
// with that type, or records the block as an item of its own.
func (ts *turnState) completeBlock(msgID, typ, kind, status string, fields map[string]any) error {
	var found *openItem
	for key, oi := range ts.blocks {
		if key.msg == msgID && oi.block == typ && (found == nil || key.index < found.key.index) {
			found = oi
		}
	}
	if found == nil {
		_, err := ts.t.RecordItem(kind, status, fields)
		return err
	}
	delete(ts.blocks, found.key)
	return ts.t.CompleteItem(found.id, status, fields)
}

// userMessage is Claude Code's "user" line: tool results, or text it adds
// to the conversation itself.
type userMessage struct {
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult json.RawMessage `json:"tool_use_result"`
}

// user completes the tool calls whose results the message carries, and
// shows the output of a slash command Claude Code ran itself.
func (ts *turnState) user(raw json.RawMessage, subagent bool) error {
	var um userMessage
	if err := json.Unmarshal(raw, &um); err != nil {
		return err
	}
	var text string
	if json.Unmarshal(um.Message.Content, &text) == nil {
		if out, ok := localCommandOutput(text); ok && out != "" && !subagent {
			_, err := ts.t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": out})
			return err
		}
		return nil
	}
	var blocks []toolResult
	if err := json.Unmarshal(um.Message.Content, &blocks); err != nil {
		return err
	}
	results := 0
	for _, b := range blocks {
		if b.Type == "tool_result" {
			results++
		}
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		var result json.RawMessage
		if results == 1 {
			result = um.ToolUseResult
		}
		if err := ts.toolResult(b, result); err != nil {
			return err
		}
	}
	return nil
}

// toolResult ends a tool call with its result.
func (ts *turnState) toolResult(r toolResult, result json.RawMessage) error {
	oi := ts.tools[r.ToolUseID]
	if oi == nil {
		return nil // a tool the bridge never showed
	}
	delete(ts.tools, r.ToolUseID)
	if oi.key.msg != "" {
		delete(ts.blocks, oi.key)
	}
	status, fields := planToolResult(oi.tool, r, result)
	if r.IsError && ts.ctx.Err() != nil {
		// Claude Code stopped the tool because the turn was interrupted.
		status = model.StatusStopped
	}
	if oi.kind == model.KindFileChange {
		changes := oi.proposed
		if c, ok := resultChanges(oi.tool, result); ok && status == model.StatusCompleted {
			changes = c
		}
		if changes == nil {
			changes = []any{}
		}
		f := map[string]any{"changes": changes}
		if e, ok := fields["error"]; ok {
			f["error"] = e
		}
		return ts.t.CompleteItem(oi.id, status, f)
	}
	if status == model.StatusCompleted {
		ts.toRunningLocked(oi) // a tool passes through running to complete
	}
	return ts.t.CompleteItem(oi.id, status, fields)
}

// system folds Claude Code's system messages of a turn: compaction,
// retries, commands started in the background.
func (ts *turnState) system(m *message) error {
	switch m.Subtype {
	case "status":
		var p struct {
			Status        *string `json:"status"`
			CompactResult string  `json:"compact_result"`
			CompactError  string  `json:"compact_error"`
		}
		if err := json.Unmarshal(m.Raw, &p); err != nil {
			return err
		}
		if p.Status != nil && *p.Status == "compacting" && ts.compaction == "" {
			id, err := ts.t.StartItem(model.KindContextCompaction, model.StatusInProgress, nil)
			if err != nil {
				return err
			}
			ts.compaction = id
		}
		if p.CompactResult != "" && p.CompactResult != "success" && ts.compaction != "" {
			id := ts.compaction
			ts.compaction = ""
			msg := p.CompactError
			if msg == "" {
				msg = "the compaction " + p.CompactResult
			}
			return ts.t.CompleteItem(id, model.StatusFailed, map[string]any{"error": msg})
		}
	case "compact_boundary":
		if id := ts.compaction; id != "" {
			ts.compaction = ""
			return ts.t.CompleteItem(id, model.StatusCompleted, nil)
		}
		_, err := ts.t.RecordItem(model.KindContextCompaction, model.StatusCompleted, nil)
		return err
	case "api_retry":
		var p struct {
			Attempt      int     `json:"attempt"`
			MaxRetries   int     `json:"max_retries"`
			RetryDelayMs float64 `json:"retry_delay_ms"`
			ErrorStatus  *int    `json:"error_status"`
			Error        string  `json:"error"`
		}
		if err := json.Unmarshal(m.Raw, &p); err != nil {
			return err
		}
		// The failed attempt's streamed blocks are abandoned: end them
		// stopped, so they never read as an answer.
		ts.stopStreamedLocked()
		status := 0
		what := p.Error
		if p.ErrorStatus != nil {
			status = *p.ErrorStatus
			what = fmt.Sprintf("HTTP %d %s", status, p.Error)
		}
		return ts.t.Warning(model.Warning{RequestKind: "model", Code: errorCode(status, p.Error),
			Message:   fmt.Sprintf("The model request failed (%s); Claude Code retries in %.1f s", strings.TrimSpace(what), p.RetryDelayMs/1000),
			Retryable: true, Attempt: p.Attempt, MaxAttempts: p.MaxRetries, WillRetry: true})
	case "task_started":
		var p struct {
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(m.Raw, &p) == nil {
			if oi := ts.tools[p.ToolUseID]; oi != nil {
				ts.toRunningLocked(oi)
			}
		}
	}
	return nil
}

// stopStreamedLocked ends the items of the blocks still streaming as
// stopped, keeping what streamed.
func (ts *turnState) stopStreamedLocked() {
	for key, oi := range ts.blocks {
		ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
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
		ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
		delete(ts.tools, id)
		if oi.key.msg != "" {
			delete(ts.blocks, oi.key)
		}
	}
}

// resultMessage is the part of Claude Code's result (one per turn) the
// turn reads.
type resultMessage struct {
	Subtype        string   `json:"subtype"`
	IsError        bool     `json:"is_error"`
	Result         string   `json:"result"`
	Errors         []string `json:"errors"`
	TerminalReason string   `json:"terminal_reason"`
	APIErrorStatus *int     `json:"api_error_status"`
}

// result ends the turn as Claude Code ended it.
func (ts *turnState) result(raw json.RawMessage) {
	var r resultMessage
	if err := json.Unmarshal(raw, &r); err != nil {
		ts.finishLocked(&host.TurnFailure{Code: "agentError", Message: "Claude Code ended the turn with an unreadable result: " + err.Error()})
		return
	}
	ts.stopToolsLocked()
	switch {
	case !r.IsError && (r.Subtype == "success" || r.Subtype == ""):
		ts.finishLocked(nil)
	case ts.ctx.Err() != nil:
		ts.finishLocked(ts.ctx.Err())
	case strings.HasPrefix(r.TerminalReason, "aborted"):
		ts.finishLocked(&host.TurnFailure{Code: "interrupted", Message: "Claude Code stopped the turn"})
	case ts.lastError != nil:
		e := ts.lastError
		ts.finishLocked(&host.TurnFailure{Code: errorCode(e.status, e.typ), Message: e.message})
	case r.APIErrorStatus != nil:
		ts.finishLocked(&host.TurnFailure{Code: errorCode(*r.APIErrorStatus, ""), Message: r.Result})
	default:
		msg := resultError(r)
		ts.t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": msg})
		ts.finishLocked(&host.TurnFailure{Code: resultCode(r.Subtype), Message: msg})
	}
}

// resultCode names a failed result for Lookout's error code.
func resultCode(subtype string) string {
	switch subtype {
	case "error_max_turns":
		return "maxTurns"
	case "error_max_budget_usd":
		return "maxBudget"
	}
	return "agentError"
}

// resultError is what a failed result says, without Claude Code's
// internal diagnostics.
func resultError(r resultMessage) string {
	var errs []string
	for _, e := range r.Errors {
		if !strings.HasPrefix(e, "[ede_diagnostic]") {
			errs = append(errs, e)
		}
	}
	switch {
	case len(errs) > 0:
		return strings.Join(errs, "; ")
	case r.Result != "":
		return r.Result
	}
	return "Claude Code ended the turn with " + r.Subtype
}
