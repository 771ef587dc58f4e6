package claudetest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// These tests drive the fake over HTTP without Claude Code.

func userText(text string) map[string]any { return map[string]any{"role": "user", "content": text} }

func TestChooseScenario(t *testing.T) {
	for _, tc := range []struct {
		prompt, name, arg string
	}{
		{"say hello", "plain", ""},
		{"HTTP 500 please", "http 500", ""},
		{"please retry", "retry", ""},
		{"retrying", "plain", ""}, // whole words only
		{"a model error", "model error", ""},
		{"run: echo hello\nmore text", "run", "echo hello"},
		{"write: /tmp/x/a.txt", "write", "/tmp/x/a.txt"},
		{"edit: /tmp/x/a.txt", "edit", "/tmp/x/a.txt"},
		{"slow please", "slow", ""},
		{"say: exactly this", "say", "exactly this"},
		{"a long one", "long", ""},
		{"run: echo retry", "retry", ""}, // table order decides
	} {
		r := Request{Messages: []Message{
			{Role: "system", Blocks: []Block{{Type: "text", Text: "# Environment run: nothing"}}},
			{Role: "user", Blocks: []Block{{Type: "text", Text: "<system-reminder>run: no</system-reminder>"}, {Type: "text", Text: tc.prompt}}},
			{Role: "system", Blocks: []Block{{Type: "text", Text: "# Environment update"}}},
		}}
		if p := choose(r); p.name != tc.name || p.arg != tc.arg {
			t.Errorf("%q: got %q %q, want %q %q", tc.prompt, p.name, p.arg, tc.name, tc.arg)
		}
	}
	tool := Message{Role: "assistant", Blocks: []Block{{Type: "tool_use", ID: "t1", Name: "Read", Input: json.RawMessage(`{"file_path":"/a"}`)}}}
	result := Message{Role: "user", Blocks: []Block{{Type: "tool_result", ToolUseID: "t1", Text: "1\tx"}}}
	r := Request{Messages: []Message{{Role: "user", Blocks: []Block{{Type: "text", Text: "edit: /a"}}}, tool, result}}
	p := choose(r)
	if p.name != "followup" || p.tool.Name != "Read" {
		t.Fatalf("after a tool ran: %+v", p)
	}
	if next, ok := nextStep(r, p); !ok || next.name != "Edit" || next.input["file_path"] != "/a" {
		t.Errorf("the edit scenario's second step = %+v %v", next, ok)
	}
	// A prompt sent after an interrupted tool call wins over its result.
	result.Blocks = append(result.Blocks, Block{Type: "text", Text: "[Request interrupted by user for tool use]"}, Block{Type: "text", Text: "say: next"})
	r.Messages[2] = result
	if p := choose(r); p.name != "say" || p.arg != "next" {
		t.Errorf("a prompt after a tool result plays %+v", p)
	}
	compact := Request{Messages: []Message{{Role: "user", Blocks: []Block{{Type: "text", Text: compactionMarker + ". Your task is to create a detailed summary"}}}}}
	if p := choose(compact); p.name != "side" {
		t.Errorf("compaction request plays %q", p.name)
	}
}

func TestEveryScenarioKeywordSelectsIt(t *testing.T) {
	for _, sc := range Scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			r := Request{Messages: []Message{{Role: "user", Blocks: []Block{{Type: "text", Text: "x " + sc.Keyword + " y"}}}}}
			if p := choose(r); p.name != sc.Name {
				t.Errorf("keyword %q plays %q, want %q", sc.Keyword, p.name, sc.Name)
			}
		})
	}
}

// sseEvent is one parsed server-sent event.
type sseEvent = agenttest.SSEEvent

// post sends a streaming Messages request and reads the answer.
func post(t *testing.T, f *FakeModel, messages ...map[string]any) (int, []sseEvent, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "claude-test", "stream": true, "messages": messages})
	req, _ := http.NewRequest(http.MethodPost, f.URL()+"/v1/messages?beta=true", strings.NewReader(string(body)))
	req.Header.Set("X-Claude-Code-Session-Id", "s1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text())
		}
		return resp.StatusCode, nil, b.String()
	}
	return resp.StatusCode, agenttest.ReadSSE(t, resp.Body), ""
}

// texts joins the text and thinking deltas and lists the tool_use blocks.
func texts(evs []sseEvent) (text, thinking string, tools []map[string]any, stop string) {
	var input strings.Builder
	for _, e := range evs {
		switch e.Type {
		case "content_block_start":
			if b := e.Data["content_block"].(map[string]any); b["type"] == "tool_use" {
				tools = append(tools, b)
				input.Reset()
			}
		case "content_block_delta":
			d := e.Data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				text += d["text"].(string)
			case "thinking_delta":
				thinking += d["thinking"].(string)
			case "input_json_delta":
				input.WriteString(d["partial_json"].(string))
			}
		case "content_block_stop":
			if len(tools) > 0 && input.Len() > 0 {
				var in map[string]any
				_ = json.Unmarshal([]byte(input.String()), &in) // input that does not parse stays nil: the caller's comparison fails
				tools[len(tools)-1]["input"] = in
				input.Reset()
			}
		case "message_delta":
			stop = e.Data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	return
}

func TestFakeStreamsScenarios(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{})
	code, evs, _ := post(t, f, userText("hello"))
	text, thinking, _, stop := texts(evs)
	if code != 200 || text != PlainAnswer || thinking != PlainThinking || stop != "end_turn" {
		t.Fatalf("plain: %d %q %q %q", code, text, thinking, stop)
	}
	if evs[0].Type != "message_start" || evs[len(evs)-1].Type != "message_stop" {
		t.Errorf("plain answer framed %s ... %s", evs[0].Type, evs[len(evs)-1].Type)
	}

	_, evs, _ = post(t, f, userText("run: echo hi"))
	text, _, tools, stop := texts(evs)
	if text != RunPreamble || len(tools) != 1 || tools[0]["name"] != "Bash" || stop != "tool_use" {
		t.Fatalf("run: %q %v %q", text, tools, stop)
	}
	if in := tools[0]["input"].(map[string]any); in["command"] != "echo hi" {
		t.Errorf("run input %v", in)
	}
	id := tools[0]["id"].(string)
	_, evs, _ = post(t, f, userText("run: echo hi"),
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "echo hi"}}}},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "hi"}}})
	if text, _, _, _ := texts(evs); text != CommandAnswerPrefix+"\n\n```\nhi\n```\n" {
		t.Errorf("after the command: %q", text)
	}

	if code, _, body := post(t, f, userText("model error")); code != 400 || !strings.Contains(body, BadRequestMessage) {
		t.Errorf("model error: %d %s", code, body)
	}
	if code, _, _ := post(t, f, userText("retry")); code != 500 {
		t.Errorf("first retry attempt: %d", code)
	}
	if code, evs, _ := post(t, f, userText("retry")); code != 200 || len(evs) == 0 {
		t.Errorf("second retry attempt: %d", code)
	}
	reqs := f.Requests()
	if len(reqs) != 6 || reqs[0].Scenario != "plain" || reqs[2].Scenario != "followup" || reqs[5].SessionID != "s1" || reqs[0].LastPrompt() != "hello" {
		t.Errorf("recorded requests: %+v", reqs)
	}
}

func TestFakeStreamsTheLongAnswer(t *testing.T) {
	long := strings.Repeat("ab日本cd", 7)
	f := NewFakeModel(t, FakeOptions{LongText: long, LongChunk: 4, LongRate: 1000})
	start := time.Now()
	_, evs, _ := post(t, f, userText("a long answer"))
	text, thinking, _, stop := texts(evs)
	// 11 deltas at 1,000 a second: the last is due 10 ms in.
	if text != long || thinking != "" || stop != "end_turn" || time.Since(start) < 10*time.Millisecond {
		t.Errorf("long: %q %q %q in %v", text, thinking, stop, time.Since(start))
	}
	for _, e := range evs {
		if d, ok := e.Data["delta"].(map[string]any); ok && d["type"] == "text_delta" && len([]rune(d["text"].(string))) > 4 {
			t.Errorf("delta %v longer than 4 runes", d)
		}
	}
}
