package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// turnState is one running turn as the dispatch goroutine folds Codex's
// events into it. mu guards the item map against approval goroutines.
type turnState struct {
	th  *thread
	t   *host.Turn
	ctx context.Context

	mu        sync.Mutex
	codexID   string
	items     map[string]*openItem          // by Codex item id
	approvals map[string]context.CancelFunc // by Codex request id
	lastError *codexError
	outcome   *bridge.Outcome // the turn's result, once
}

// openItem is a Codex item the turn has opened in Lookout.
type openItem struct {
	id        string // Lookout item id
	kind      string
	status    string
	summaries int // reasoning summary parts opened so far
	item      codexItem
}

func newTurnState(th *thread, t *host.Turn, ctx context.Context) *turnState {
	return &turnState{th: th, t: t, ctx: ctx, items: map[string]*openItem{},
		approvals: map[string]context.CancelFunc{}, outcome: bridge.NewOutcome()}
}

func (ts *turnState) setCodexTurn(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.codexID == "" {
		ts.codexID = id
	}
}

func (ts *turnState) codexTurn() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.codexID
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
		if len(m.ID) > 0 {
			_ = ts.th.p.conn.reply(m.ID, map[string]any{"decision": "cancel"})
		}
		return
	}
	var err error
	switch m.Method {
	case "turn/started":
		var p struct {
			Turn struct {
				ID string `json:"id"`
			} `json:"turn"`
		}
		if json.Unmarshal(m.Params, &p) == nil && ts.codexID == "" {
			ts.codexID = p.Turn.ID
		}
	case "item/started":
		err = ts.itemStarted(m.Params)
	case "item/completed":
		err = ts.itemCompleted(m.Params)
	case "item/agentMessage/delta":
		err = ts.delta(m.Params, func(*openItem, deltaParams) string { return "text" })
	case "item/reasoning/summaryTextDelta":
		err = ts.delta(m.Params, summaryField)
	case "item/commandExecution/outputDelta":
		err = ts.delta(m.Params, func(oi *openItem, _ deltaParams) string {
			ts.toRunningLocked(oi)
			return "output"
		})
	case "item/fileChange/patchUpdated":
		err = ts.patchUpdated(m.Params)
	case "turn/plan/updated":
		err = ts.planUpdated(m.Params)
	case "error":
		err = ts.codexErrorLocked(m.Params)
	case "warning", "configWarning":
		ts.warning(m.Params)
	case "turn/completed":
		ts.completed(m.Params)
	case "item/commandExecution/requestApproval", "item/fileChange/requestApproval":
		err = ts.askLocked(m)
	case "item/tool/requestUserInput":
		err = ts.askUserInputLocked(m)
	case "serverRequest/resolved":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			if cancel := ts.approvals[string(p.RequestID)]; cancel != nil {
				cancel() // Codex withdrew the question: the host resolves it
			}
		}
	default:
		if len(m.ID) > 0 {
			// A question Lookout cannot put to its users yet: decline it
			// visibly rather than leave Codex waiting.
			_ = ts.th.p.conn.replyError(m.ID, -32601, "Lookout cannot answer "+m.Method)
			_ = ts.t.Warning(model.Warning{RequestKind: "agent", Code: "unsupportedRequest",
				Message: "Codex asked something Lookout cannot answer yet (" + m.Method + "); it was declined"})
		}
	}
	if err != nil {
		ts.th.a.log.Warn("codex event not folded", "session", ts.th.sess.ID(), "method", m.Method, "err", err)
		bridge.NotShown(ts.t, "Codex's "+m.Method, err)
	}
}

type itemParams struct {
	Item json.RawMessage `json:"item"`
}

func (ts *turnState) itemStarted(params json.RawMessage) error {
	var p itemParams
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	it, err := decodeItem(p.Item)
	if err != nil {
		return err
	}
	if ts.items[it.ID] != nil {
		return nil // a repeat
	}
	plan := planStart(it, ts.th.cwd)
	if plan.Skip {
		return nil
	}
	id, err := ts.t.StartItem(plan.Kind, plan.Status, plan.Fields)
	if err != nil {
		return err
	}
	ts.items[it.ID] = &openItem{id: id, kind: plan.Kind, status: plan.Status, summaries: len(it.Summary), item: it}
	return nil
}

func (ts *turnState) itemCompleted(params json.RawMessage) error {
	var p itemParams
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	it, err := decodeItem(p.Item)
	if err != nil {
		return err
	}
	plan := planComplete(it, ts.th.cwd)
	if plan.Skip {
		return nil
	}
	oi := ts.items[it.ID]
	if oi == nil {
		_, err := ts.t.RecordItem(plan.Kind, plan.Status, plan.Fields)
		return err
	}
	delete(ts.items, it.ID)
	if plan.Status == model.StatusCompleted {
		ts.toRunningLocked(oi) // a tool passes through running to complete
	}
	return ts.t.CompleteItem(oi.id, plan.Status, plan.Fields)
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

type deltaParams struct {
	ItemID       string `json:"itemId"`
	Delta        string `json:"delta"`
	SummaryIndex *int   `json:"summaryIndex"`
}

// decodeDelta reads a delta's params (valid JSON: a member of a checked
// line) with model's member scanner; a member of the wrong type is an
// error, as json.Unmarshal would make it.
func decodeDelta(params json.RawMessage) (deltaParams, error) {
	var p deltaParams
	err := model.EachMember(params, func(k, v []byte) error {
		ok := true
		switch {
		case string(v) == "null": // as json.Unmarshal: nothing set
		case model.KeyIs(k, "itemId"):
			p.ItemID, ok = model.Unquote(v)
		case model.KeyIs(k, "delta"):
			p.Delta, ok = model.Unquote(v)
		case model.KeyIs(k, "summaryIndex"):
			n, err := strconv.Atoi(string(v))
			p.SummaryIndex, ok = &n, err == nil
		}
		if !ok {
			return fmt.Errorf("delta member %s: %.40s is not of its type", k, v)
		}
		return nil
	})
	return p, err
}

// delta appends a streamed piece to the field field names ("" skips it).
func (ts *turnState) delta(params json.RawMessage, field func(*openItem, deltaParams) string) error {
	p, err := decodeDelta(params)
	if err != nil {
		return err
	}
	oi := ts.items[p.ItemID]
	if oi == nil {
		return fmt.Errorf("a delta for item %q, which Codex never started", p.ItemID)
	}
	f := field(oi, p)
	if f == "" {
		return nil
	}
	return ts.t.Delta(oi.id, f, p.Delta)
}

// summaryField is summary.N for a reasoning summary part. A part may only
// open right after the last one (a delta creates it); a part further on
// waits for the item's completion, which restates every part.
func summaryField(oi *openItem, p deltaParams) string {
	i := 0
	if p.SummaryIndex != nil {
		i = *p.SummaryIndex
	}
	switch {
	case i < oi.summaries:
	case i == oi.summaries:
		oi.summaries++
	default:
		return ""
	}
	return "summary." + strconv.Itoa(i)
}

func (ts *turnState) patchUpdated(params json.RawMessage) error {
	var p struct {
		ItemID  string        `json:"itemId"`
		Changes []codexChange `json:"changes"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	oi := ts.items[p.ItemID]
	if oi == nil {
		return fmt.Errorf("a patch update for item %q, which Codex never started", p.ItemID)
	}
	oi.item.Changes = p.Changes
	return ts.t.UpdateItem(oi.id, "", map[string]any{"changes": changes(p.Changes, ts.th.cwd)})
}

// codexErrorLocked maps Codex's error notification: a retry notice is a
// warning; a final error is an error item, and names the turn's failure.
func (ts *turnState) codexErrorLocked(params json.RawMessage) error {
	var p struct {
		Error     codexError `json:"error"`
		WillRetry bool       `json:"willRetry"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	if p.WillRetry {
		// Codex drops the failed attempt's items and streams new ones: end
		// the abandoned ones stopped, so they never read as an answer.
		ts.stopStreamedLocked()
		attempt, max := retryAttempt(p.Error.Message)
		return ts.t.Warning(model.Warning{RequestKind: "model", Code: errorCode(p.Error.CodexErrorInfo),
			Message: p.Error.text(), Retryable: true, Attempt: attempt, MaxAttempts: max, WillRetry: true})
	}
	ts.lastError = &p.Error
	_, err := ts.t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": p.Error.text()})
	return err
}

// stopStreamedLocked ends the open messages and reasoning of the turn as
// stopped, keeping what streamed.
func (ts *turnState) stopStreamedLocked() {
	for cid, oi := range ts.items {
		if oi.kind == model.KindAgentMessage || oi.kind == model.KindReasoning {
			_ = ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
			delete(ts.items, cid)
		}
	}
}

func (ts *turnState) warning(params json.RawMessage) {
	var p struct {
		Message string `json:"message"`
		Summary string `json:"summary"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	msg := p.Message
	if msg == "" {
		msg = p.Summary
	}
	if msg != "" {
		_ = ts.t.Warning(model.Warning{RequestKind: "agent", Code: "agentWarning", Message: msg})
	}
}

// completed ends the turn as Codex ended it.
func (ts *turnState) completed(params json.RawMessage) {
	var p struct {
		Turn struct {
			Status string      `json:"status"`
			Error  *codexError `json:"error"`
		} `json:"turn"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		ts.outcome.Finish(&host.TurnFailure{Code: "agentError", Message: "Codex ended the turn with an unreadable turn/completed: " + err.Error()})
		return
	}
	switch p.Turn.Status {
	case "completed":
		ts.outcome.Finish(nil)
	case "interrupted":
		if err := ts.ctx.Err(); err != nil {
			ts.outcome.Finish(err)
			return
		}
		ts.outcome.Finish(&host.TurnFailure{Code: "interrupted", Message: "Codex interrupted the turn"})
	default:
		e := p.Turn.Error
		if e == nil {
			e = ts.lastError
		}
		if e == nil {
			ts.outcome.Finish(&host.TurnFailure{Code: "modelError", Message: "Codex reported the turn " + p.Turn.Status})
			return
		}
		ts.outcome.Finish(&host.TurnFailure{Code: errorCode(e.CodexErrorInfo), Message: e.text()})
	}
}
