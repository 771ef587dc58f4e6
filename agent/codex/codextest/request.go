package codextest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one POST /v1/responses the fake model received, as parsed by
// the fake. Codex sends the whole conversation every time, so Input holds
// every earlier message of the thread as well as the new prompt.
type Request struct {
	// Seq numbers the requests of one FakeModel from 1, in arrival order.
	Seq int
	// Kind is the request_kind Codex puts in its x-codex-turn-metadata
	// header: "turn" for a model call of a turn, "compaction" for a
	// thread/compact/start summary; "" when the header is absent.
	Kind string
	// TurnID is Codex's turn id from the same header ("" when absent).
	TurnID string
	// ThreadSource is the header's thread_source: "thread_title" for the
	// title request Codex's own TUI makes beside each turn's first model
	// call ("" when absent).
	ThreadSource string
	// Scenario is the name of the scenario the fake played (see Scenarios),
	// "followup" for the answer after a tool ran, "side" for a request that
	// is not a turn's model call.
	Scenario string
	// Input is the request's input items, simplified.
	Input []InputItem
	// Body is the raw JSON body (model, tools, input, ...).
	Body json.RawMessage
	// Header is a copy of the HTTP headers.
	Header http.Header
}

// InputItem is one element of a request's "input" array, simplified. Only
// the fields that belong to its Type are set.
type InputItem struct {
	// Type is "message", "reasoning", "function_call",
	// "function_call_output", ... as Codex sent it.
	Type string
	// Role is "user", "assistant" or "developer" (messages only).
	Role string
	// Text joins the text parts of a message (input_text and output_text)
	// or the summary parts of a reasoning item.
	Text string
	// Name, CallID and Arguments describe a function_call; CallID and
	// Output a function_call_output.
	Name, CallID, Arguments, Output string
}

// IsPrompt reports whether the item is a user message a person typed, as
// opposed to the context Codex adds as user messages
// (<environment_context>, AGENTS.md instructions, other <tagged> blocks,
// the summary that replaces history after a compaction).
func (it InputItem) IsPrompt() bool {
	if it.Type != "message" || it.Role != "user" {
		return false
	}
	t := strings.TrimSpace(it.Text)
	for _, p := range codexUserPrefixes {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

// codexUserPrefixes start the user-role messages Codex writes itself.
var codexUserPrefixes = []string{"<", "# AGENTS.md instructions", "Another language model started to solve this problem"}

// Prompts lists the texts of the request's prompt messages (see
// InputItem.IsPrompt), oldest first.
func (r Request) Prompts() []string {
	var out []string
	for _, it := range r.Input {
		if it.IsPrompt() {
			out = append(out, it.Text)
		}
	}
	return out
}

// LastPrompt is the newest prompt message of the request, or "".
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
	for _, it := range r.Input {
		if it.Type == "message" && it.Role == "assistant" {
			out = append(out, it.Text)
		}
	}
	return out
}

// wireRequest is the part of a Responses API request body the fake reads.
type wireRequest struct {
	Input []wireItem `json:"input"`
}

type wireItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   []wirePart      `json:"summary"`
	Name      string          `json:"name"`
	CallID    string          `json:"call_id"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

type wirePart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// parseRequest decodes body and the Codex metadata header. A body that is
// not JSON yields a Request with no Input (the fake still answers it).
func parseRequest(body []byte, h http.Header) Request {
	r := Request{Body: json.RawMessage(body), Header: h.Clone()}
	var meta struct {
		RequestKind  string `json:"request_kind"`
		TurnID       string `json:"turn_id"`
		ThreadSource string `json:"thread_source"`
	}
	if json.Unmarshal([]byte(h.Get("x-codex-turn-metadata")), &meta) == nil {
		r.Kind, r.TurnID, r.ThreadSource = meta.RequestKind, meta.TurnID, meta.ThreadSource
	}
	var w wireRequest
	if json.Unmarshal(body, &w) != nil {
		return r
	}
	for _, wi := range w.Input {
		it := InputItem{Type: wi.Type, Role: wi.Role, Name: wi.Name, CallID: wi.CallID, Arguments: wi.Arguments}
		switch wi.Type {
		case "message":
			it.Text = partsText(wi.Content)
		case "reasoning":
			it.Text = joinParts(wi.Summary)
		case "function_call_output", "custom_tool_call_output":
			it.Output = partsText(wi.Output)
		}
		r.Input = append(r.Input, it)
	}
	return r
}

// partsText reads a content field that is either a string or an array of
// {type, text} parts.
func partsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []wirePart
	if json.Unmarshal(raw, &parts) == nil {
		return joinParts(parts)
	}
	return ""
}

func joinParts(parts []wirePart) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
