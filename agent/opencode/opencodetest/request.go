package opencodetest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one POST /v1/chat/completions the fake model received, as
// parsed by the fake. OpenCode sends the whole conversation every time, so
// Messages holds every earlier message of the session as well as the new
// prompt.
type Request struct {
	// Seq numbers the requests of one FakeModel from 1, in arrival order.
	Seq int
	// Scenario is the name of the scenario the fake played (see
	// Scenarios), "followup" for the answer after a tool ran, "title" for
	// a title request, "summary" for a compaction request.
	Scenario string
	// Stream is the request's "stream" member.
	Stream bool
	// Messages are the request's messages, simplified.
	Messages []Message
	// Tools are the names of the tools offered.
	Tools []string
	// Body is the raw JSON body.
	Body json.RawMessage
	// Header is a copy of the HTTP headers.
	Header http.Header
}

// Message is one element of a request's "messages", simplified.
type Message struct {
	// Role is "system", "user", "assistant" or "tool".
	Role string
	// Text joins the text of the content (a string or text parts).
	Text string
	// ToolCalls lists the names of an assistant message's tool calls.
	ToolCalls []string
	// ToolCallID is a tool message's call id.
	ToolCallID string
}

// IsTitle reports whether the request is one of OpenCode's title requests
// (its small model naming the session), not a turn's model call.
func (r Request) IsTitle() bool {
	for _, m := range r.Messages {
		if m.Role == "system" && strings.Contains(m.Text, "title generator") {
			return true
		}
	}
	return false
}

// IsCompaction reports whether the request asks for OpenCode's summary of
// the session (POST /session/{id}/summarize, or OpenCode compacting on
// its own): its system prompt is the summarization agent's.
func (r Request) IsCompaction() bool {
	for _, m := range r.Messages {
		if m.Role == "system" && strings.Contains(m.Text, "context summarization agent") {
			return true
		}
	}
	return false
}

// toolCalls counts the assistant's calls of tool in the conversation.
func (r Request) toolCalls(tool string) int {
	n := 0
	for _, m := range r.Messages {
		for _, c := range m.ToolCalls {
			if c == tool {
				n++
			}
		}
	}
	return n
}

// Prompts lists the texts of the request's user messages, oldest first.
func (r Request) Prompts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role == "user" {
			out = append(out, m.Text)
		}
	}
	return out
}

// LastPrompt is the newest user message of the request, or "".
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
			out = append(out, m.Text)
		}
	}
	return out
}

type wireRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// parseRequest decodes body. A body that is not JSON yields a Request with
// no Messages (the fake still answers it).
func parseRequest(body []byte, h http.Header) Request {
	r := Request{Body: json.RawMessage(body), Header: h.Clone()}
	var w wireRequest
	if json.Unmarshal(body, &w) != nil {
		return r
	}
	r.Stream = w.Stream
	for _, wm := range w.Messages {
		m := Message{Role: wm.Role, Text: contentText(wm.Content), ToolCallID: wm.ToolCallID}
		for _, tc := range wm.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, tc.Function.Name)
		}
		r.Messages = append(r.Messages, m)
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.Function.Name)
	}
	return r
}

// contentText reads a content member that is a string or an array of
// {type, text} parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
