package opencodetest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestChooseScenario(t *testing.T) {
	msgs := func(ms ...Message) Request { return Request{Messages: ms} }
	user := func(s string) Message { return Message{Role: "user", Text: s} }
	cases := []struct {
		req  Request
		want play
	}{
		{msgs(user("hello there")), play{name: "plain"}},
		{msgs(user("say: a b c")), play{name: "say", arg: "a b c"}},
		{msgs(user("RUN: echo hi\nmore")), play{name: "run", arg: "echo hi"}},
		{msgs(user("rerun: echo")), play{name: "plain"}},
		{msgs(user("write: /tmp/x.txt")), play{name: "write", arg: "/tmp/x.txt"}},
		{msgs(user("edit: /tmp/x.txt")), play{name: "edit", arg: "/tmp/x.txt"}},
		{msgs(user("a model error please")), play{name: "model error"}},
		{msgs(user("retry please")), play{name: "retry"}},
		{msgs(user("slow answer")), play{name: "slow"}},
		{msgs(user("slowly")), play{name: "plain"}},
		{msgs(user("a long answer")), play{name: "long"}},
		{msgs(user("run: ls"), Message{Role: "assistant", ToolCalls: []string{"bash"}}, Message{Role: "tool", Text: "out"}), play{name: "followup"}},
		{msgs(Message{Role: "system", Text: "You are a title generator. You output ONLY a thread title."}, user("run: ls")), play{name: "title"}},
		{msgs(Message{Role: "system", Text: "You are a context summarization agent."}, user("[User]: run: ls\nCreate a new anchored summary")), play{name: "summary"}},
	}
	for _, c := range cases {
		t.Run(c.want.name, func(t *testing.T) {
			if got := choose(c.req); got != c.want {
				t.Errorf("choose(%+v) = %+v, want %+v", c.req.Messages, got, c.want)
			}
		})
	}
}

func TestFakeStreamsChatCompletions(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{})
	content, reasoning, done, usage := streamAnswer(t, f, "hello")
	if content != PlainAnswer || reasoning != PlainReasoning || !done || !usage {
		t.Errorf("content %q reasoning %q done %v usage %v", content, reasoning, done, usage)
	}
	reqs := f.Requests()
	if len(reqs) != 1 || reqs[0].Scenario != "plain" || reqs[0].LastPrompt() != "hello" {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestFakeStreamsTheLongAnswer(t *testing.T) {
	long := strings.Repeat("ab日本cd", 7)
	f := NewFakeModel(t, FakeOptions{LongText: long, LongChunk: 4, LongRate: 1000})
	start := time.Now()
	content, reasoning, done, _ := streamAnswer(t, f, "a long answer")
	// 11 deltas at 1,000 a second (no Gap): the last is due 10 ms in.
	if took := time.Since(start); content != long || reasoning != "" || !done || took < 10*time.Millisecond || took > 5*time.Second {
		t.Errorf("long: %q %q done %v in %v", content, reasoning, done, took)
	}
}

// streamAnswer posts a streaming request with prompt and joins what the
// fake answers.
func streamAnswer(t *testing.T, f *FakeModel, prompt string) (content, reasoning string, done, usage bool) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "fake-model", "stream": true, "messages": []any{
		map[string]any{"role": "system", "content": "sys"},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": prompt}}}}})
	res, err := http.Post(f.URL()+"/chat/completions", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var c, r strings.Builder
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content          string `json:"content"`
					ReasoningContent string `json:"reasoning_content"`
				} `json:"delta"`
			} `json:"choices"`
			Usage json.RawMessage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			t.Fatal(err)
		}
		c.WriteString(chunk.Choices[0].Delta.Content)
		r.WriteString(chunk.Choices[0].Delta.ReasoningContent)
		usage = usage || len(chunk.Usage) > 0
	}
	return c.String(), r.String(), done, usage
}

func TestFakeRetryFailsThenAnswers(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{})
	body := `{"stream":true,"messages":[{"role":"user","content":"retry please"}]}`
	codes := []int{}
	for range 2 {
		res, err := http.Post(f.URL()+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		codes = append(codes, res.StatusCode)
	}
	if codes[0] != http.StatusServiceUnavailable || codes[1] != http.StatusOK {
		t.Errorf("retry answered %v, want 503 then 200", codes)
	}
}
