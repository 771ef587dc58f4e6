package claude

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/model"
)

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

// syntheticModel is the model Claude Code names on a message it wrote
// itself rather than a model's answer.
const syntheticModel = "<synthetic>"

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
		case b.Type == "text" && am.Message.Model == syntheticModel:
			// No model wrote it: the output of a command Claude Code ran
			// itself (/cost), kept line by line.
			err = ts.completeBlock(msgID, b.Type, model.KindAgentMessage, status, map[string]any{"text": commandOutputMarkdown(b.Text)})
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
