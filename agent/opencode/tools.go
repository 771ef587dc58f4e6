package opencode

import (
	"reflect"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

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
