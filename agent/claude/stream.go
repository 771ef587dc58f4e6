package claude

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/lookout-sh/lookout/model"
)

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

// decodeBlockDelta reads a content_block_delta event (valid JSON: a
// member of a checked line), the event of every streamed piece, with
// model's member scanner; false, with ev unchanged or partly set, for any
// other event or a member it does not read as json.Unmarshal would.
func decodeBlockDelta(raw []byte, ev *streamEvent) bool {
	ok := true
	err := model.EachMember(raw, func(k, v []byte) error {
		switch {
		case model.KeyIs(k, "type"):
			ev.Type, ok = model.Unquote(v)
			ok = ok && ev.Type == "content_block_delta"
		case model.KeyIs(k, "index"):
			n, err := strconv.Atoi(string(v))
			ev.Index, ok = n, err == nil
		case model.KeyIs(k, "delta"):
			ok = model.EachMember(v, func(k, v []byte) error {
				var dst *string
				switch {
				case model.KeyIs(k, "type"):
					dst = &ev.Delta.Type
				case model.KeyIs(k, "text"):
					dst = &ev.Delta.Text
				case model.KeyIs(k, "thinking"):
					dst = &ev.Delta.Thinking
				case model.KeyIs(k, "partial_json"):
					dst = &ev.Delta.PartialJSON
				default:
					return nil
				}
				s, good := model.Unquote(v)
				if !good {
					return errNotPlain
				}
				*dst = s
				return nil
			}) == nil
		default:
			return nil
		}
		if !ok {
			return errNotPlain
		}
		return nil
	})
	return err == nil && ok && ev.Type == "content_block_delta"
}

// errNotPlain stops decodeBlockDelta at a member json.Unmarshal must read.
var errNotPlain = errors.New("not a plain content_block_delta")

func isToolBlock(typ string) bool {
	return typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use"
}

// streamEvent folds one streaming event: blocks open items, deltas stream
// into them.
func (ts *turnState) streamEvent(raw json.RawMessage) error {
	var ev streamEvent
	if !decodeBlockDelta(raw, &ev) {
		ev = streamEvent{}
		if err := json.Unmarshal(raw, &ev); err != nil {
			return err
		}
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
// is nil, else with it. A TodoWrite opens no item: once Claude Code has
// taken its input (its tool_result), the input revises the turn's plan.
func (ts *turnState) openTool(name, toolID string, input json.RawMessage) (*openItem, error) {
	if name == toolTodoWrite {
		ts.tools[toolID] = &openItem{kind: model.KindPlan, block: "tool_use", tool: name, toolID: toolID, inputDone: input != nil, todos: input}
		return ts.tools[toolID], nil
	}
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
	if oi.kind == model.KindPlan {
		oi.todos = input
		return nil
	}
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
