package codextest

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// These tests drive the fake over HTTP without Codex.

func TestChooseScenario(t *testing.T) {
	for _, tc := range []struct {
		prompt, name, arg string
	}{
		{"say hello", "plain", ""},
		{"HTTP 500 please", "http 500", ""},
		{"please retry", "retry", ""},
		{"retrying", "plain", ""}, // whole words only
		{"a disconnect", "disconnect", ""},
		{"model error", "model error", ""},
		{"Run sandboxed: echo hi", "run sandboxed", "echo hi"},
		{"run: echo hello\nmore text", "run", "echo hello"},
		{"run command now", "run command", ""},
		{"patch update: a.txt", "patch update", "a.txt"},
		{"patch: b.txt", "patch", "b.txt"},
		{"make a patch", "patch file", ""},
		{"slow please", "slow", ""},
		{"a long one", "long", ""},
		{"belong", "plain", ""},
		{"say: exactly this", "say", "exactly this"},
		{"run: echo retry", "retry", ""}, // table order decides
		{"İstanbul RUN: echo İ", "run", "echo İ"},
	} {
		r := Request{Input: []InputItem{
			{Type: "message", Role: "user", Text: "<environment_context>run: nothing</environment_context>"},
			{Type: "message", Role: "user", Text: tc.prompt},
		}}
		if p := choose(r); p.name != tc.name || p.arg != tc.arg {
			t.Errorf("%q: got %q %q, want %q %q", tc.prompt, p.name, p.arg, tc.name, tc.arg)
		}
	}
	if p := choose(Request{Kind: "compaction"}); p.name != "side" {
		t.Errorf("compaction request plays %q", p.name)
	}
	// The TUI's title request quotes the prompt: it gets a title, not the
	// prompt's scenario.
	title := Request{Kind: "turn", ThreadSource: "thread_title", Input: []InputItem{{Type: "message", Role: "user", Text: "Generate a title.\n\nUser prompt:\nlong"}}}
	if p := choose(title); p.name != "title" {
		t.Errorf("title request plays %q", p.name)
	}
	r := Request{Input: []InputItem{{Type: "message", Role: "user", Text: "http 500"}, {Type: "function_call_output"}}}
	if p := choose(r); p.name != "followup" {
		t.Errorf("after a tool ran: %q", p.name)
	}
	// Approved with an exec-policy amendment, Codex notes the saved prefix
	// after the tool's output: still the answer after the tool.
	r = Request{Input: []InputItem{{Type: "message", Role: "user", Text: "run: touch a.txt"},
		{Type: "function_call", CallID: "c1"}, {Type: "function_call_output", CallID: "c1", Output: "Output:\nran\n"},
		{Type: "message", Role: "developer", Text: "Approved command prefix saved:\n- [\"touch\", \"a.txt\"]"}}}
	if p := choose(r); p.name != "followup" {
		t.Errorf("after a tool ran and Codex noted the approved prefix: %q", p.name)
	}
	if got := followupAnswer(r); !strings.Contains(got, "ran") {
		t.Errorf("the followup after the note quotes %q, want the tool's output", got)
	}
}

func TestEveryScenarioKeywordSelectsIt(t *testing.T) {
	for _, sc := range Scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			r := Request{Input: []InputItem{{Type: "message", Role: "user", Text: "x " + sc.Keyword + " y"}}}
			if p := choose(r); p.name != sc.Name {
				t.Errorf("keyword %q plays %q, want %q", sc.Keyword, p.name, sc.Name)
			}
		})
	}
}

// sseEvent is one parsed server-sent event.
type sseEvent = agenttest.SSEEvent

// post sends a Responses request whose input is items and reads the events.
func post(t *testing.T, f *FakeModel, header http.Header, items ...map[string]any) (int, []sseEvent) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "fake-model", "stream": true, "input": items})
	req, _ := http.NewRequest(http.MethodPost, f.URL()+"/responses", strings.NewReader(string(body)))
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, agenttest.ReadSSE(t, resp.Body)
}

func user(text string) map[string]any {
	return map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}}
}

// textOf joins the output_text deltas and checks them against the done item.
func textOf(t *testing.T, evs []sseEvent) string {
	t.Helper()
	var b strings.Builder
	var done string
	for _, e := range evs {
		switch e.Type {
		case "response.output_text.delta":
			b.WriteString(e.Data["delta"].(string))
		case "response.output_item.done":
			it := e.Data["item"].(map[string]any)
			if it["type"] == "message" {
				done = it["content"].([]any)[0].(map[string]any)["text"].(string)
			}
		}
	}
	if b.String() != done {
		t.Errorf("deltas %q differ from the done item %q", b.String(), done)
	}
	return done
}

func TestFakePlainStream(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{})
	code, evs := post(t, f, nil, user("<environment_context/>"), user("hello"))
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	if evs[0].Type != "response.created" || evs[len(evs)-1].Type != "response.completed" {
		t.Fatalf("events from %s to %s", evs[0].Type, evs[len(evs)-1].Type)
	}
	if got := textOf(t, evs); got != PlainAnswer {
		t.Errorf("answer %q", got)
	}
	var summary strings.Builder
	ids := map[string]bool{}
	for _, e := range evs {
		if e.Type == "response.reasoning_summary_text.delta" {
			summary.WriteString(e.Data["delta"].(string))
		}
		if e.Type == "response.output_item.added" {
			id := e.Data["item"].(map[string]any)["id"].(string)
			if ids[id] {
				t.Errorf("item id %s twice", id)
			}
			ids[id] = true
		}
	}
	if summary.String() != PlainReasoning {
		t.Errorf("summary %q", summary.String())
	}
	u := evs[len(evs)-1].Data["response"].(map[string]any)["usage"].(map[string]any)
	if u["input_tokens"] != 10.0 || u["output_tokens"] != 5.0 || u["total_tokens"] != 15.0 {
		t.Errorf("usage %v", u)
	}
	// A second response mints other ids.
	_, evs2 := post(t, f, nil, user("hello"))
	for _, e := range evs2 {
		if e.Type == "response.output_item.added" && ids[e.Data["item"].(map[string]any)["id"].(string)] {
			t.Errorf("id reused across responses: %v", e.Data["item"])
		}
	}
	reqs := f.Requests()
	if len(reqs) != 2 || reqs[0].Seq != 1 || reqs[0].Scenario != "plain" || reqs[0].LastPrompt() != "hello" || len(reqs[0].Prompts()) != 1 {
		t.Errorf("requests %+v", reqs)
	}
}

func TestFakeCommandAndFollowup(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{})
	_, evs := post(t, f, nil, user("run: ls -l"))
	var call map[string]any
	for _, e := range evs {
		if e.Type == "response.output_item.done" {
			if it := e.Data["item"].(map[string]any); it["type"] == "function_call" {
				call = it
			}
		}
	}
	if call == nil || call["name"] != "exec_command" {
		t.Fatalf("no exec_command call in %v", evs)
	}
	var args map[string]any
	_ = json.Unmarshal([]byte(call["arguments"].(string)), &args)
	if args["cmd"] != "ls -l" || args["sandbox_permissions"] != "require_escalated" || args["justification"] != CommandJustification {
		t.Errorf("arguments %v", args)
	}
	_, evs = post(t, f, nil, user("run: ls -l"),
		map[string]any{"type": "function_call", "name": "exec_command", "call_id": call["call_id"], "arguments": call["arguments"]},
		map[string]any{"type": "function_call_output", "call_id": call["call_id"], "output": "Chunk ID: 1\nProcess exited with code 0\nOutput:\nfile.txt\n"})
	if got := textOf(t, evs); got != CommandAnswerPrefix+"\n\n```\nfile.txt\n```\n" {
		t.Errorf("follow-up answer %q", got)
	}
	if r := f.Requests()[1]; r.Scenario != "followup" || r.Input[2].Output == "" || r.Input[1].CallID != call["call_id"] {
		t.Errorf("follow-up request %+v", r)
	}
}

func TestFakeRetryFailsThenAnswers(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{FailAttempts: 2})
	h := http.Header{"X-Codex-Turn-Metadata": {`{"request_kind":"turn","turn_id":"t1"}`}}
	for i, want := range []int{500, 500, 200} {
		if code, _ := post(t, f, h, user("retry")); code != want {
			t.Fatalf("attempt %d: status %d, want %d", i+1, code, want)
		}
	}
	// Another turn fails again.
	h2 := http.Header{"X-Codex-Turn-Metadata": {`{"request_kind":"turn","turn_id":"t2"}`}}
	if code, _ := post(t, f, h2, user("retry")); code != 500 {
		t.Errorf("new turn: status %d", code)
	}
	if r := f.Requests()[0]; r.Kind != "turn" || r.TurnID != "t1" {
		t.Errorf("metadata %q %q", r.Kind, r.TurnID)
	}
	_, evs := post(t, f, h2, user("disconnect"))
	if last := evs[len(evs)-1].Type; last == "response.completed" {
		t.Errorf("disconnect completed on its first attempt")
	}
}

func TestFakeLongAndSay(t *testing.T) {
	long := strings.Repeat("ab日本cd", 7)
	f := NewFakeModel(t, FakeOptions{LongText: long, LongChunk: 4})
	_, evs := post(t, f, nil, user("long"))
	if got := textOf(t, evs); got != long {
		t.Errorf("long %q", got)
	}
	for _, e := range evs {
		if d, ok := e.Data["delta"].(string); ok && len([]rune(d)) > 4 {
			t.Errorf("delta %q longer than 4 runes", d)
		}
	}
	f = NewFakeModel(t, FakeOptions{LongText: long, LongChunk: 4, LongRate: 1000})
	start := time.Now()
	_, evs = post(t, f, nil, user("long"))
	// 11 deltas at 1,000 a second: the last is due 10 ms in.
	if got := textOf(t, evs); got != long || time.Since(start) < 10*time.Millisecond {
		t.Errorf("long at a rate: %q in %v", got, time.Since(start))
	}
	_, evs = post(t, f, nil, user("say: just this"))
	if got := textOf(t, evs); got != "just this" {
		t.Errorf("say %q", got)
	}
}

func TestFakeSlowStopsWhenTheClientGoes(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{SlowInterval: 5 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	body, _ := json.Marshal(map[string]any{"input": []any{user("slow")}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.URL()+"/responses", strings.NewReader(string(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	n := 0
	for sc.Scan() && n < 3 {
		if strings.HasPrefix(sc.Text(), "event: response.output_text.delta") {
			n++
		}
	}
	cancel()
	resp.Body.Close()
	done := make(chan struct{})
	go func() { f.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs on the slow stream")
	}
}

func TestFakeHTTP500AndNotFound(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{})
	if code, _ := post(t, f, nil, user("http 500")); code != 500 {
		t.Errorf("status %d", code)
	}
	resp, err := http.Get(f.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("GET /models: %d", resp.StatusCode)
	}
	if !strings.HasPrefix(f.URL(), "http://127.0.0.1:") || !strings.HasSuffix(f.URL(), "/v1") {
		t.Errorf("URL %s", f.URL())
	}
}

func TestConfigTOML(t *testing.T) {
	c := ConfigTOML("http://127.0.0.1:1/v1", HomeOptions{Sandbox: "read-only", StreamRetries: 2, ExtraConfig: "[x]\ny = 1"})
	for _, want := range []string{`base_url = "http://127.0.0.1:1/v1"`, `sandbox_mode = "read-only"`,
		`approval_policy = "on-request"`, "stream_max_retries = 2", "request_max_retries = 0",
		"stream_idle_timeout_ms = 10000", "[x]\ny = 1"} {
		if !strings.Contains(c, want) {
			t.Errorf("config lacks %q:\n%s", want, c)
		}
	}
	env := Home(t, "http://127.0.0.1:1/v1", HomeOptions{})
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CODEX_HOME", "HOME", "FAKE_CODEX_API_KEY", "RUST_LOG", "NO_PROXY", "no_proxy", "PATH", "TMPDIR", "LANG":
		default:
			t.Errorf("unexpected variable %s", kv)
		}
	}
	if agenttest.EnvValue(env, "FAKE_CODEX_API_KEY") != "dummy" || agenttest.EnvValue(env, "CODEX_HOME") == agenttest.EnvValue(env, "HOME") {
		t.Errorf("env %v", env)
	}
}

func TestFakeCloseEndsAStreamInProgress(t *testing.T) {
	f := NewFakeModel(t, FakeOptions{SlowInterval: time.Second})
	body, _ := json.Marshal(map[string]any{"input": []any{user("slow")}})
	resp, err := http.Post(f.URL()+"/responses", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	done := make(chan struct{})
	go func() { f.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs while a slow stream is open")
	}
}
