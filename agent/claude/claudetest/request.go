package claudetest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one POST /v1/messages the fake model received, as parsed by
// the fake. Claude Code sends the whole conversation every time, so
// Messages holds every earlier message of the session as well as the new
// prompt.
type Request struct {
	// Seq numbers the requests of one FakeModel from 1, in arrival order.
	Seq int
	// Scenario is the name of the scenario the fake played (see Scenarios),
	// "followup" for the answer after a tool ran, "side" for a compaction
	// summary.
	Scenario string
	// Arg is the scenario's argument (the rest of the line after a
	// "keyword:").
	Arg string
	// Model is the model Claude Code asked for.
	Model string
	// SessionID is Claude Code's session id (its X-Claude-Code-Session-Id
	// header).
	SessionID string
	// Messages are the request's messages, simplified.
	Messages []Message
	// Body is the raw JSON body (model, system, tools, messages, ...).
	Body json.RawMessage
	// Header is a copy of the HTTP headers.
	Header http.Header
}

// Message is one element of a request's "messages" array. Claude Code
// sends "user" and "assistant" messages, and "system" messages of its own
// between them (environment updates).
type Message struct {
	Role   string
	Blocks []Block
}

// Block is one content block of a message, simplified: a string content
// is one "text" block. Only the fields that belong to its Type are set.
type Block struct {
	// Type is "text", "thinking", "tool_use", "tool_result", ...
	Type string
	// Text is a text or thinking block's text, or a tool_result's content
	// (its text parts joined).
	Text string
	// ID and Name describe a tool_use; Input is its input object.
	ID, Name string
	Input    json.RawMessage
	// ToolUseID and IsError describe a tool_result.
	ToolUseID string
	IsError   bool
}

// Text joins the message's text blocks.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// IsPrompt reports whether a text block of a user message is something a
// person typed, as opposed to the text Claude Code adds as user content
// (<system-reminder> blocks, interruption markers, local command output,
// the summary that replaces history after a compaction).
func IsPrompt(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return false
	}
	for _, p := range claudeUserPrefixes {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

// claudeUserPrefixes start the user-role texts Claude Code writes itself.
var claudeUserPrefixes = []string{"<", "[Request interrupted", "This session is being continued", "Caveat:", compactionMarker}

// compactionMarker starts the instructions of a compaction request.
const compactionMarker = "CRITICAL: Respond with TEXT ONLY"

// Prompts lists the prompts of the request's user messages (see IsPrompt),
// oldest first.
func (r Request) Prompts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type == "text" && IsPrompt(b.Text) {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// LastPrompt is the newest prompt of the request, or "".
func (r Request) LastPrompt() string {
	p := r.Prompts()
	if len(p) == 0 {
		return ""
	}
	return p[len(p)-1]
}

// AssistantTexts lists the texts of the assistant messages the request
// carries (the model's earlier answers), oldest first.
func (r Request) AssistantTexts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			if t := m.Text(); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// IsCompaction reports whether the request asks for a summary of the
// conversation (/compact, or Claude Code compacting on its own).
func (r Request) IsCompaction() bool {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role == "user" {
			return strings.Contains(m.Text(), compactionMarker)
		}
	}
	return false
}

// toolUse finds the tool_use block with id in the request's assistant
// messages.
func (r Request) toolUse(id string) (Block, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		for _, b := range r.Messages[i].Blocks {
			if b.Type == "tool_use" && b.ID == id {
				return b, true
			}
		}
	}
	return Block{}, false
}

// lastUser is the newest user message, skipping the system messages
// Claude Code puts after it.
func (r Request) lastUser() (Message, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		switch r.Messages[i].Role {
		case "user":
			return r.Messages[i], true
		case "assistant":
			return Message{}, false
		}
	}
	return Message{}, false
}

// wireRequest is the part of a Messages API request body the fake reads.
type wireRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// parseRequest decodes body. A body that is not JSON yields a Request with
// no Messages (the fake still answers it).
func parseRequest(body []byte, h http.Header) Request {
	r := Request{Body: json.RawMessage(body), Header: h.Clone(), SessionID: h.Get("X-Claude-Code-Session-Id")}
	var w wireRequest
	if json.Unmarshal(body, &w) != nil {
		return r
	}
	r.Model = w.Model
	for _, wm := range w.Messages {
		r.Messages = append(r.Messages, Message{Role: wm.Role, Blocks: blocks(wm.Content)})
	}
	return r
}

// blocks reads a content field that is either a string or an array of
// content blocks.
func blocks(raw json.RawMessage) []Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var wbs []wireBlock
	if json.Unmarshal(raw, &wbs) != nil {
		return nil
	}
	out := make([]Block, 0, len(wbs))
	for _, wb := range wbs {
		b := Block{Type: wb.Type, Text: wb.Text, ID: wb.ID, Name: wb.Name, Input: wb.Input, ToolUseID: wb.ToolUseID, IsError: wb.IsError}
		switch wb.Type {
		case "thinking":
			b.Text = wb.Thinking
		case "tool_result":
			for _, cb := range blocks(wb.Content) {
				if cb.Type == "text" {
					b.Text += cb.Text
				}
			}
		}
		out = append(out, b)
	}
	return out
}
