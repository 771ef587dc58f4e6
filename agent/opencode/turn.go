package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

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
	patched  []string                // files OpenCode's patch parts listed
	shown    map[string]bool         // files a fileChange item showed
	lastErr  *ocError                // the turn's last error
	early    *ocError                // an error before the turn was armed
	aborted  bool                    // OpenCode reported the turn aborted
	// finished is set once the outcome is known; done receives it once.
	finished bool
	done     chan error
}

// openItem is an OpenCode part the turn has opened in Lookout.
type openItem struct {
	id       string // Lookout item id
	kind     string
	status   string
	text     string // text (or reasoning) streamed so far
	output   string // command output streamed so far
	inputSet bool   // the tool's parsed input has been shown
	changes  []any  // a fileChange's latest changes
	permDiff string // the diff OpenCode showed when it asked permission
	part     *part  // the latest state of the part
}

// pendingPerm is an approval put to the user.
type pendingPerm struct {
	cancel    context.CancelFunc
	withdrawn bool // answered elsewhere: OpenCode wants no reply
}

func newTurnState(s *session, srv *server, t *host.Turn, ctx context.Context) *turnState {
	return &turnState{s: s, srv: srv, t: t, ctx: ctx, items: map[string]*openItem{}, calls: map[string]*openItem{},
		closed: map[string]bool{}, perms: map[string]*pendingPerm{}, shown: map[string]bool{}, done: make(chan error, 1)}
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
	for _, p := range ts.perms {
		p.cancel()
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
	if ts.finished {
		if typ == "permission.asked" {
			ts.rejectUnasked(props)
		}
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
		ts.question(props)
	}
	if err != nil {
		ts.malformedLocked(typ, err)
	}
}

// malformedLocked shows an event the bridge could not fold as a warning.
func (ts *turnState) malformedLocked(typ string, err error) {
	ts.s.a.log.Warn("opencode event not folded", "session", ts.s.sess.ID(), "type", typ, "err", err)
	if err != host.ErrTurnOver {
		ts.t.Warning(model.Warning{RequestKind: "agent", Code: "malformedAgentOutput",
			Message: fmt.Sprintf("Lookout could not show OpenCode's %s: %v", typ, err)})
	}
}

func (ts *turnState) messageUpdated(props json.RawMessage, fresh bool) error {
	var p struct {
		Info messageInfo `json:"info"`
	}
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if p.Info.Role == "user" && fresh && ts.userMsg == "" {
		ts.userMsg = p.Info.ID
	}
	return nil
}

func (ts *turnState) partUpdated(props json.RawMessage) error {
	var w struct {
		Part json.RawMessage `json:"part"`
	}
	if err := json.Unmarshal(props, &w); err != nil {
		return err
	}
	p, err := decodePart(w.Part)
	if err != nil {
		return err
	}
	if !ts.ours(p.MessageID) || ts.closed[p.ID] {
		return nil
	}
	if ts.s.role(p.MessageID) == "user" && p.Type != "compaction" {
		return nil // the prompt, or context OpenCode added to it
	}
	switch p.Type {
	case "text":
		if p.Synthetic || p.Ignored {
			return nil
		}
		return ts.textPart(p, model.KindAgentMessage)
	case "reasoning":
		return ts.textPart(p, model.KindReasoning)
	case "tool":
		if isFileTool(p.Tool) {
			return ts.filePart(p)
		}
		return ts.toolPart(p)
	case "patch":
		ts.patched = append(ts.patched, p.Files...)
	case "compaction":
		ts.closed[p.ID] = true
		_, err := ts.t.RecordItem(model.KindContextCompaction, model.StatusCompleted, nil)
		return err
	case "step-finish":
		if p.Tokens != nil {
			ts.s.noteStep(*p.Tokens, p.Cost)
		}
	case "step-start", "snapshot", "retry", "agent", "file", "subtask":
		// Bookkeeping, or shown otherwise (retries as warnings).
	default:
		return ts.otherPart(p)
	}
	return nil
}

// textFields are the members of a text or reasoning item holding text.
func textFields(kind, text string) map[string]any {
	if kind == model.KindReasoning {
		if text == "" {
			return map[string]any{"summary": []string{}}
		}
		return map[string]any{"summary": []string{text}}
	}
	return map[string]any{"text": text}
}

func textField(kind string) string {
	if kind == model.KindReasoning {
		return "summary.0"
	}
	return "text"
}

// textPart folds a text or reasoning part: the item opens on the part's
// first sight, grows by deltas, and completes when the part has ended.
func (ts *turnState) textPart(p *part, kind string) error {
	oi := ts.items[p.ID]
	if oi == nil {
		if p.ended() && strings.TrimSpace(p.Text) == "" {
			ts.closed[p.ID] = true
			return nil
		}
		id, err := ts.t.StartItem(kind, model.StatusInProgress, textFields(kind, p.Text))
		if err != nil {
			return err
		}
		oi = &openItem{id: id, kind: kind, status: model.StatusInProgress, text: p.Text}
		ts.items[p.ID] = oi
	} else if p.Text != oi.text {
		var err error
		if strings.HasPrefix(p.Text, oi.text) {
			err = ts.t.Delta(oi.id, textField(kind), p.Text[len(oi.text):])
		} else {
			err = ts.t.UpdateItem(oi.id, "", textFields(kind, p.Text))
		}
		if err != nil {
			return err
		}
		oi.text = p.Text
	}
	if !p.ended() {
		return nil
	}
	delete(ts.items, p.ID)
	ts.closed[p.ID] = true
	return ts.t.CompleteItem(oi.id, model.StatusCompleted, textFields(kind, p.Text))
}

func (ts *turnState) partDelta(props json.RawMessage) error {
	var p struct {
		PartID string `json:"partID"`
		Field  string `json:"field"`
		Delta  string `json:"delta"`
	}
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	oi := ts.items[p.PartID]
	if oi == nil || p.Field != "text" || (oi.kind != model.KindAgentMessage && oi.kind != model.KindReasoning) {
		return nil // not the turn's, or nothing Lookout streams
	}
	oi.text += p.Delta
	return ts.t.Delta(oi.id, textField(oi.kind), p.Delta)
}

func (ts *turnState) partRemoved(props json.RawMessage) {
	var p struct {
		PartID string `json:"partID"`
	}
	if json.Unmarshal(props, &p) != nil {
		return
	}
	if oi := ts.items[p.PartID]; oi != nil {
		delete(ts.items, p.PartID)
		ts.closed[p.PartID] = true
		ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
	}
}

// toolOrder ranks the open tool statuses along the state machine.
var toolOrder = map[string]int{model.StatusInputStreaming: 0, model.StatusReady: 1, model.StatusWaitingUser: 2, model.StatusRunning: 3}

// advanceLocked moves a toolCall forward to target through the statuses
// the state machine requires (inputStreaming -> ready -> [waitingUser ->]
// running), never back. fields go with the first move.
func (ts *turnState) advanceLocked(oi *openItem, target string, fields map[string]any) error {
	if oi.kind != model.KindToolCall {
		return nil
	}
	for {
		cur, ok := toolOrder[oi.status]
		if !ok || cur >= toolOrder[target] {
			return nil
		}
		next := target
		switch oi.status {
		case model.StatusInputStreaming:
			next = model.StatusReady
		case model.StatusReady:
			if target != model.StatusWaitingUser {
				next = model.StatusRunning
			}
		}
		if err := ts.t.UpdateItem(oi.id, next, fields); err != nil {
			return err
		}
		fields = nil
		oi.status = next
	}
}

// toolPart folds a tool part that is not a file tool into a toolCall.
func (ts *turnState) toolPart(p *part) error {
	oi := ts.items[p.ID]
	if oi == nil {
		oi = ts.calls[p.CallID] // opened by a permission that came first
	}
	target := toolTarget(p.State)
	f := toolFields(p)
	if oi == nil {
		status := model.StatusInputStreaming
		if target != model.StatusInputStreaming {
			status = model.StatusReady
		}
		id, err := ts.t.StartItem(model.KindToolCall, status, f)
		if err != nil {
			return err
		}
		oi = &openItem{id: id, kind: model.KindToolCall, status: status, inputSet: status != model.StatusInputStreaming}
		if p.CallID != "" {
			ts.calls[p.CallID] = oi
		}
	}
	ts.items[p.ID] = oi
	oi.part = p
	if target != model.StatusInputStreaming && !oi.inputSet {
		// The input is parsed: show it, with the first move if there is one.
		var err error
		if oi.status == model.StatusInputStreaming {
			err = ts.advanceLocked(oi, model.StatusReady, f)
		} else {
			err = ts.t.UpdateItem(oi.id, "", f)
		}
		if err != nil {
			return err
		}
		oi.inputSet = true
	}
	switch target {
	case model.StatusReady:
		return ts.advanceLocked(oi, model.StatusReady, nil)
	case model.StatusRunning:
		if err := ts.advanceLocked(oi, model.StatusRunning, nil); err != nil {
			return err
		}
		var out string
		if !p.State.meta("output", &out) || out == oi.output {
			return nil
		}
		var err error
		if strings.HasPrefix(out, oi.output) {
			err = ts.t.Delta(oi.id, "output", out[len(oi.output):])
		} else {
			err = ts.t.UpdateItem(oi.id, "", map[string]any{"output": out})
		}
		oi.output = out
		return err
	case model.StatusCompleted, model.StatusFailed:
		status, fields := toolCompletion(p)
		if status == model.StatusFailed && ts.interruptedTool(p) {
			status = model.StatusStopped
		}
		if status == model.StatusCompleted {
			if err := ts.advanceLocked(oi, model.StatusRunning, nil); err != nil {
				return err
			}
		}
		ts.endTool(p)
		return ts.t.CompleteItem(oi.id, status, fields)
	}
	return nil
}

// interruptedTool reports whether a failed tool was stopped by an abort.
func (ts *turnState) interruptedTool(p *part) bool {
	var interrupted bool
	return ts.aborted || ts.ctx.Err() != nil || (p.State.meta("interrupted", &interrupted) && interrupted)
}

func (ts *turnState) endTool(p *part) {
	delete(ts.items, p.ID)
	delete(ts.calls, p.CallID)
	ts.closed[p.ID] = true
}

// filePart folds an edit or write part into a fileChange: open while
// OpenCode prepares the edit or waits for permission, completed once
// applied, failed when declined or not applied.
func (ts *turnState) filePart(p *part) error {
	oi := ts.items[p.ID]
	if oi == nil {
		oi = ts.calls[p.CallID]
	}
	if oi != nil && oi.kind != model.KindFileChange {
		// A permission came before the tool's first part and opened a
		// toolCall: the tool stays one.
		return ts.toolPart(p)
	}
	permDiff := ""
	if oi != nil {
		permDiff = oi.permDiff
	}
	changes := fileChanges(p, permDiff)
	if oi == nil {
		id, err := ts.t.StartItem(model.KindFileChange, model.StatusInProgress, map[string]any{"changes": changes})
		if err != nil {
			return err
		}
		oi = &openItem{id: id, kind: model.KindFileChange, status: model.StatusInProgress, changes: changes}
		if p.CallID != "" {
			ts.calls[p.CallID] = oi
		}
	} else if !reflect.DeepEqual(changes, oi.changes) && len(changes) > 0 {
		if err := ts.t.UpdateItem(oi.id, "", map[string]any{"changes": changes}); err != nil {
			return err
		}
		oi.changes = changes
	}
	ts.items[p.ID] = oi
	oi.part = p
	switch p.State.Status {
	case "completed":
		ts.endTool(p)
		for _, c := range changes {
			ts.shown[c.(map[string]any)["path"].(string)] = true
		}
		return ts.t.CompleteItem(oi.id, model.StatusCompleted, map[string]any{"changes": changes})
	case "error":
		msg := p.State.Error
		status := model.StatusFailed
		switch {
		case strings.Contains(msg, "rejected permission"):
			msg = "the user declined this change"
		case ts.interruptedTool(p):
			status = model.StatusStopped
		}
		ts.endTool(p)
		return ts.t.CompleteItem(oi.id, status, map[string]any{"changes": changes, "error": msg})
	}
	return nil
}

// otherPart shows a part type the bridge does not know as an item of that
// kind with OpenCode's members; the host ends it with the turn.
func (ts *turnState) otherPart(p *part) error {
	var m map[string]any
	if json.Unmarshal(p.Raw, &m) != nil {
		return nil
	}
	for _, k := range []string{"id", "type", "sessionID", "messageID", "status", "itemId", "kind", "turnId", "revision", "position", "recordedAt", "truncated"} {
		delete(m, k)
	}
	if oi := ts.items[p.ID]; oi != nil {
		return ts.t.UpdateItem(oi.id, "", m)
	}
	id, err := ts.t.StartItem(p.Type, model.StatusInProgress, m)
	if err != nil {
		return err
	}
	ts.items[p.ID] = &openItem{id: id, kind: p.Type, status: model.StatusInProgress}
	return nil
}

// status folds session.status: a retry is a warning; idle ends the turn.
func (ts *turnState) status(props json.RawMessage) error {
	var p struct {
		Status struct {
			Type    string `json:"type"`
			Attempt int    `json:"attempt"`
			Message string `json:"message"`
		} `json:"status"`
	}
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if ts.userMsg != "" && p.Status.Type != "idle" {
		ts.busy = true
	}
	switch p.Status.Type {
	case "retry":
		if ts.userMsg == "" {
			return nil
		}
		// OpenCode drops the failed attempt's parts: end the streamed ones
		// stopped, so they never read as an answer.
		ts.stopStreamedLocked()
		msg := p.Status.Message
		if msg == "" {
			msg = "the model request failed"
		}
		return ts.t.Warning(model.Warning{RequestKind: "model", Code: "modelRetry",
			Message: "OpenCode retries the model request: " + msg, Retryable: true, Attempt: p.Status.Attempt, WillRetry: true})
	case "idle":
		ts.idleLocked()
	}
	return nil
}

// stopStreamedLocked ends the open messages and reasoning of the turn as
// stopped, keeping what streamed.
func (ts *turnState) stopStreamedLocked() {
	for pid, oi := range ts.items {
		if oi.kind == model.KindAgentMessage || oi.kind == model.KindReasoning {
			ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
			delete(ts.items, pid)
			ts.closed[pid] = true
		}
	}
}

// idleLocked ends an armed turn as OpenCode ended it.
func (ts *turnState) idleLocked() {
	if ts.userMsg == "" {
		if ts.early != nil {
			// OpenCode refused the prompt before making a message of it.
			ts.finishLocked(&host.TurnFailure{Code: errorCode(ts.early.Name), Message: ts.early.text()})
		}
		return
	}
	if !ts.busy {
		// A previous turn's late idle, or OpenCode stored the prompt
		// without running it: make sure it is not the latter.
		if !ts.checking {
			ts.checking = true
			time.AfterFunc(startCheckDelay, ts.checkStarted)
		}
		return
	}
	switch {
	case ts.aborted:
		if err := ts.ctx.Err(); err != nil {
			ts.finishLocked(err)
			return
		}
		ts.finishLocked(&host.TurnFailure{Code: "interrupted", Message: "OpenCode aborted the turn"})
	case ts.lastErr != nil:
		ts.finishLocked(&host.TurnFailure{Code: errorCode(ts.lastErr.Name), Message: ts.lastErr.text()})
	default:
		ts.finishLocked(nil)
	}
}

// startCheckDelay is how long after an idle that found the turn not
// started the bridge looks whether OpenCode is running it at all.
var startCheckDelay = 3 * time.Second

// checkStarted fails a turn OpenCode never started (its prompt is stored
// but the session stayed idle), rather than wait for it forever.
func (ts *turnState) checkStarted() {
	ts.mu.Lock()
	pending := !ts.finished && !ts.busy
	ts.mu.Unlock()
	if !pending {
		return
	}
	ctx, cancel := context.WithTimeout(ts.srv.ctx, 10*time.Second)
	defer cancel()
	var busy map[string]json.RawMessage
	if err := ts.srv.c.do(ctx, "GET", "/session/status", ts.s.directory(), nil, &busy); err != nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if _, running := busy[ts.s.openCodeID()]; !running && !ts.busy {
		ts.finishLocked(&host.TurnFailure{Code: "agentError", Message: "OpenCode took the prompt but did not start working on it; send it again"})
	}
}

// sessionError folds session.error: an abort marks the turn interrupted;
// any other error is an error item and names the turn's failure.
func (ts *turnState) sessionError(props json.RawMessage) error {
	var p struct {
		Error *ocError `json:"error"`
	}
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if p.Error == nil {
		return nil
	}
	if ts.userMsg == "" {
		ts.early = p.Error
		return nil
	}
	ts.busy = true
	if p.Error.Name == "MessageAbortedError" {
		ts.aborted = true
		return nil
	}
	ts.lastErr = p.Error
	_, err := ts.t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": p.Error.text()})
	return err
}

// question declines a question OpenCode's question tool asks: Lookout
// cannot put it to its users yet.
func (ts *turnState) question(props json.RawMessage) {
	var p struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(props, &p) != nil || p.ID == "" {
		return
	}
	go ts.s.post("/question/"+p.ID+"/reject", nil)
	ts.t.Warning(model.Warning{RequestKind: "agent", Code: "unsupportedRequest",
		Message: "OpenCode asked a question Lookout cannot put to you yet; it was declined"})
}
