package opencodetest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
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
	body := `{"model":"fake-model","stream":true,"messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"hello"}]}]}`
	res, err := http.Post(f.URL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var reasoning, content strings.Builder
	done, usage := false, false
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
		var c struct {
			Choices []struct {
				Delta struct {
					Content          string `json:"content"`
					ReasoningContent string `json:"reasoning_content"`
				} `json:"delta"`
			} `json:"choices"`
			Usage json.RawMessage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		content.WriteString(c.Choices[0].Delta.Content)
		reasoning.WriteString(c.Choices[0].Delta.ReasoningContent)
		usage = usage || len(c.Usage) > 0
	}
	if content.String() != PlainAnswer || reasoning.String() != PlainReasoning || !done || !usage {
		t.Errorf("content %q reasoning %q done %v usage %v", content.String(), reasoning.String(), done, usage)
	}
	reqs := f.Requests()
	if len(reqs) != 1 || reqs[0].Scenario != "plain" || reqs[0].LastPrompt() != "hello" {
		t.Errorf("recorded %+v", reqs)
	}
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
