package opencode

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

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
		if p.Tool == toolTodoWrite && ts.calls[p.CallID] == nil {
			return ts.todoPart(p)
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
		oi = &openItem{id: id, kind: kind, status: model.StatusInProgress}
		oi.text.WriteString(p.Text)
		ts.items[p.ID] = oi
	} else if had := oi.text.String(); p.Text != had {
		if strings.HasPrefix(p.Text, had) {
			if err := ts.t.Delta(oi.id, textField(kind), p.Text[len(had):]); err != nil {
				return err
			}
			oi.text.WriteString(p.Text[len(had):])
		} else {
			if err := ts.t.UpdateItem(oi.id, "", textFields(kind, p.Text)); err != nil {
				return err
			}
			oi.text.Reset()
			oi.text.WriteString(p.Text)
		}
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
	if !stringMembers(props, map[string]*string{"partID": &p.PartID, "field": &p.Field, "delta": &p.Delta}) {
		p.PartID, p.Field, p.Delta = "", "", ""
		if err := json.Unmarshal(props, &p); err != nil {
			return err
		}
	}
	oi := ts.items[p.PartID]
	if oi == nil || p.Field != "text" || (oi.kind != model.KindAgentMessage && oi.kind != model.KindReasoning) {
		return nil // not the turn's, or nothing Lookout streams
	}
	oi.text.WriteString(p.Delta)
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
		_ = ts.t.CompleteItem(oi.id, model.StatusStopped, nil)
	}
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
