package codextest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
)

// The smoke tests run the real `codex app-server` against the fake model,
// one scenario after another on one app-server per configuration. Set
// CODEXTEST_TRANSCRIPTS=DIR to write every line sent and received to
// DIR/NAME.jsonl (PROTOCOL_NOTES.md was written from those).

type rig struct {
	fake   *codextest.FakeModel
	env    []string
	dir    string
	server *appServer
	thread string
}

func newRig(t *testing.T, name string, fo codextest.FakeOptions, ho codextest.HomeOptions) *rig {
	t.Helper()
	codextest.Binary(t) // skip early without a binary
	r := &rig{fake: codextest.NewFakeModel(t, fo), dir: agenttest.Workdir(t)}
	r.env = codextest.Home(t, r.fake.URL(), ho)
	r.server = startAppServer(t, name, r.env, r.dir)
	r.thread = r.server.startThread(r.dir)
	return r
}

func TestSmoke(t *testing.T) {
	start := time.Now()
	long := strings.Repeat("Some *markdown* with `code`, é and 日本.\n", 250) // ~10 KB
	r := newRig(t, "smoke", codextest.FakeOptions{LongText: long}, codextest.HomeOptions{})
	a := r.server
	t.Logf("codex started and thread ready in %v", time.Since(start))

	step := agenttest.Steps(t)

	step("plain", func(t *testing.T) {
		ms := a.turn(r.thread, "say hello", map[string]any{"clientUserMessageId": "client-msg-1"}, nil)
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		one(t, ms, "turn/started")
		if got, n := deltas(ms, "item/agentMessage/delta"); got != codextest.PlainAnswer || n < 3 {
			t.Errorf("answer deltas (%d) = %q, want %q in several", n, got, codextest.PlainAnswer)
		}
		if got, _ := deltas(ms, "item/reasoning/summaryTextDelta"); got != codextest.PlainReasoning {
			t.Errorf("reasoning deltas = %q", got)
		}
		one(t, ms, "item/reasoning/summaryPartAdded")
		if it := oneItem(t, ms, "agentMessage"); it["text"] != codextest.PlainAnswer {
			t.Errorf("agentMessage completed text = %q", it["text"])
		}
		if it := oneItem(t, ms, "reasoning"); !sameJSON(it["summary"], []any{codextest.PlainReasoning}) {
			t.Errorf("reasoning completed summary = %v", it["summary"])
		}
		if it := oneItem(t, ms, "userMessage"); it["clientId"] != "client-msg-1" {
			t.Errorf("userMessage clientId = %v, want client-msg-1", it["clientId"])
		}
		u := one(t, ms, "thread/tokenUsage/updated").param()
		if total := u["tokenUsage"].(map[string]any)["total"].(map[string]any); total["totalTokens"] != 15.0 {
			t.Errorf("token usage total = %v", total)
		}
	})

	step("run with approval", func(t *testing.T) {
		var approvals []msg
		ms := a.turn(r.thread, "run: echo hello from the test && touch approved.txt && sleep 0.5 && echo streamed", nil, func(m msg) any {
			approvals = append(approvals, m)
			return map[string]any{"decision": "accept"}
		})
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		if len(approvals) != 1 || approvals[0].Method != "item/commandExecution/requestApproval" {
			t.Fatalf("want one command approval request, got %d: %s", len(approvals), dumpMethods(approvals))
		}
		p := approvals[0].param()
		if p["reason"] != codextest.CommandJustification || !strings.Contains(p["command"].(string), "echo hello from the test") {
			t.Errorf("approval params = %v", p)
		}
		// Codex streams only the output that comes after its first
		// ~200 ms; aggregatedOutput holds all of it.
		if out, _ := deltas(ms, "item/commandExecution/outputDelta"); !strings.Contains(out, "streamed") {
			t.Errorf("output deltas = %q", out)
		}
		it := oneItem(t, ms, "commandExecution")
		if it["status"] != "completed" || it["exitCode"] != 0.0 || it["aggregatedOutput"] != "hello from the test\nstreamed\n" {
			t.Errorf("commandExecution completed = %v", it)
		}
		if _, err := os.Stat(filepath.Join(r.dir, "approved.txt")); err != nil {
			t.Errorf("the approved command did not run: %v", err)
		}
		ans := oneItem(t, ms, "agentMessage")["text"].(string)
		if !strings.HasPrefix(ans, codextest.CommandAnswerPrefix) || !strings.Contains(ans, "hello from the test") {
			t.Errorf("final answer = %q", ans)
		}
	})

	step("run declined", func(t *testing.T) {
		ms := a.turn(r.thread, "run: touch declined.txt", nil, decide("decline"))
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		it := oneItem(t, ms, "commandExecution")
		if it["status"] != "declined" {
			t.Errorf("commandExecution completed = %v", it)
		}
		if _, err := os.Stat(filepath.Join(r.dir, "declined.txt")); err == nil {
			t.Errorf("the declined command ran")
		}
	})

	step("run sandboxed", func(t *testing.T) {
		ms := a.turn(r.thread, "run sandboxed: echo hi", nil, func(m msg) any {
			t.Errorf("unexpected server request %s", m.raw)
			return map[string]any{"decision": "decline"}
		})
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		if it := oneItem(t, ms, "commandExecution"); it["status"] != "completed" || it["exitCode"] != 0.0 || !strings.Contains(it["aggregatedOutput"].(string), "hi") {
			t.Errorf("commandExecution completed = %v", it)
		}
	})

	step("patch", func(t *testing.T) {
		ms := a.turn(r.thread, "patch: notes.txt", nil, func(m msg) any {
			t.Errorf("unexpected server request %s", m.raw)
			return map[string]any{"decision": "decline"}
		})
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		it := oneItem(t, ms, "fileChange")
		ch := it["changes"].([]any)[0].(map[string]any)
		if it["status"] != "completed" || ch["path"] != filepath.Join(r.dir, "notes.txt") || ch["diff"] != codextest.PatchLine+"\n" {
			t.Errorf("fileChange completed = %v", it)
		}
		if b, err := os.ReadFile(filepath.Join(r.dir, "notes.txt")); err != nil || string(b) != codextest.PatchLine+"\n" {
			t.Errorf("notes.txt = %q, %v", b, err)
		}
		if ans := oneItem(t, ms, "agentMessage")["text"].(string); !strings.HasPrefix(ans, codextest.PatchAnswerPrefix) {
			t.Errorf("final answer = %q", ans)
		}
	})

	step("patch update", func(t *testing.T) {
		ms := a.turn(r.thread, "patch update: notes.txt", nil, nil)
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		it := oneItem(t, ms, "fileChange")
		ch := it["changes"].([]any)[0].(map[string]any)
		if kind := ch["kind"].(map[string]any); kind["type"] != "update" || !strings.Contains(ch["diff"].(string), "+"+codextest.PatchUpdatedLine) {
			t.Errorf("fileChange completed = %v", it)
		}
		if b, _ := os.ReadFile(filepath.Join(r.dir, "notes.txt")); string(b) != codextest.PatchUpdatedLine+"\n" {
			t.Errorf("notes.txt = %q", b)
		}
	})

	step("http 500", func(t *testing.T) {
		ms := a.turn(r.thread, "http 500 please", nil, nil)
		st, e := turnStatus(t, ms)
		if st != "failed" || e["message"] == "" || e["codexErrorInfo"] == nil {
			t.Fatalf("turn %s %v", st, e)
		}
		if p := one(t, ms, "error").param(); p["willRetry"] != false {
			t.Errorf("error notification = %v", p)
		}
	})

	step("model error", func(t *testing.T) {
		ms := a.turn(r.thread, "model error please", nil, nil)
		if st, e := turnStatus(t, ms); st != "failed" || e["message"] == "" {
			t.Fatalf("turn %s %v", st, e)
		}
	})

	step("slow interrupted", func(t *testing.T) {
		id := a.startTurn(r.thread, "slow please", nil)
		ms := a.until(func(m msg) bool { return m.Method == "" && string(m.ID) == id }, nil)
		var turnID string
		var res struct {
			Turn struct {
				ID string `json:"id"`
			} `json:"turn"`
		}
		_ = json.Unmarshal(ms[len(ms)-1].Result, &res)
		turnID = res.Turn.ID
		n := 0
		ms = append(ms, a.until(func(m msg) bool {
			if m.Method == "item/agentMessage/delta" {
				n++
			}
			return n == 3
		}, nil)...)
		t0 := time.Now()
		_, before := a.call("turn/interrupt", map[string]any{"threadId": r.thread, "turnId": turnID})
		ms = append(ms, before...)
		ms = append(ms, a.until(func(m msg) bool { return m.Method == "turn/completed" }, nil)...)
		if st, _ := turnStatus(t, ms); st != "interrupted" {
			t.Fatalf("turn %s", st)
		}
		t.Logf("interrupt -> turn/completed in %v", time.Since(t0))
		if got := items(ms, "item/completed", "agentMessage"); len(got) != 0 {
			t.Errorf("the interrupted answer completed: %v", got)
		}
		// Codex's history keeps the interrupted turn without the partial answer.
		list, _ := a.call("thread/turns/list", map[string]any{"threadId": r.thread, "limit": 1})
		var page struct {
			Data []struct {
				ID     string           `json:"id"`
				Status string           `json:"status"`
				Items  []map[string]any `json:"items"`
			} `json:"data"`
		}
		if err := json.Unmarshal(list, &page); err != nil || len(page.Data) != 1 {
			t.Fatalf("thread/turns/list: %s %v", list, err)
		}
		if tr := page.Data[0]; tr.ID != turnID || tr.Status != "interrupted" {
			t.Errorf("newest turn %s %s, want %s interrupted", tr.ID, tr.Status, turnID)
		} else {
			for _, it := range tr.Items {
				if it["type"] == "agentMessage" {
					t.Errorf("history holds the partial answer: %v", it)
				}
			}
		}
	})

	step("long", func(t *testing.T) {
		ms := a.turn(r.thread, "long answer please", nil, nil)
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		got, n := deltas(ms, "item/agentMessage/delta")
		if got != long {
			t.Errorf("long answer differs (%d bytes in %d deltas, want %d bytes)", len(got), n, len(long))
		}
		t.Logf("long: %d deltas", n)
	})

	step("compact", func(t *testing.T) {
		_, before := a.call("thread/compact/start", map[string]any{"threadId": r.thread})
		ms := append(before, a.until(func(m msg) bool { return m.Method == "turn/completed" }, nil)...)
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		oneItem(t, ms, "contextCompaction")
		reqs := r.fake.Requests()
		if last := reqs[len(reqs)-1]; last.Kind != "compaction" || last.Scenario != "side" {
			t.Errorf("compaction request: kind %q scenario %q", last.Kind, last.Scenario)
		}
	})

	step("name", func(t *testing.T) {
		_, before := a.call("thread/name/set", map[string]any{"threadId": r.thread, "name": "Smoke thread"})
		ms := append(before, a.until(func(m msg) bool { return m.Method == "thread/name/updated" }, nil)...)
		if p := one(t, ms, "thread/name/updated").param(); p["threadName"] != "Smoke thread" {
			t.Errorf("thread/name/updated = %v", p)
		}
	})

	step("context", func(t *testing.T) {
		ms := a.turn(r.thread, "say: the context test answer", nil, nil)
		if st, e := turnStatus(t, ms); st != "completed" {
			t.Fatalf("turn %s %v", st, e)
		}
		reqs := r.fake.Requests()
		last := reqs[len(reqs)-1]
		if last.Scenario != "say" || last.LastPrompt() != "say: the context test answer" {
			t.Fatalf("last request: scenario %q prompt %q", last.Scenario, last.LastPrompt())
		}
		// After a compaction Codex keeps the earlier prompts and adds the
		// summary (SideAnswer) as a user message.
		if !containsText(last.Prompts(), "say hello") {
			t.Errorf("the request lost the earlier prompts: %q", last.Prompts())
		}
		summary := false
		for _, it := range last.Input {
			summary = summary || (it.Role == "user" && !it.IsPrompt() && strings.Contains(it.Text, codextest.SideAnswer))
		}
		if !summary {
			t.Errorf("the request carries no compaction summary")
		}
	})
	t.Logf("TestSmoke total %v", time.Since(start))
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func containsText(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

func TestSmokeReadOnlyPatchApproval(t *testing.T) {
	r := newRig(t, "readonly", codextest.FakeOptions{}, codextest.HomeOptions{Sandbox: "read-only"})
	var approvals []msg
	ms := r.server.turn(r.thread, "patch: approved.txt", nil, func(m msg) any {
		approvals = append(approvals, m)
		return map[string]any{"decision": "accept"}
	})
	if st, e := turnStatus(t, ms); st != "completed" {
		t.Fatalf("turn %s %v", st, e)
	}
	if len(approvals) != 1 || approvals[0].Method != "item/fileChange/requestApproval" {
		t.Fatalf("want one file change approval, got: %s", dumpMethods(approvals))
	}
	it := oneItem(t, ms, "fileChange")
	if approvals[0].param()["itemId"] != it["id"] || it["status"] != "completed" {
		t.Errorf("approval %v for item %v", approvals[0].param(), it)
	}
	if b, err := os.ReadFile(filepath.Join(r.dir, "approved.txt")); err != nil || string(b) != codextest.PatchLine+"\n" {
		t.Errorf("approved.txt = %q, %v", b, err)
	}
	// Declined: the file is not written and the item says so.
	ms = r.server.turn(r.thread, "patch: declined.txt", nil, decide("decline"))
	if it := oneItem(t, ms, "fileChange"); it["status"] != "declined" {
		t.Errorf("declined fileChange = %v", it)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "declined.txt")); err == nil {
		t.Errorf("the declined patch was applied")
	}
}

func TestSmokeRetry(t *testing.T) {
	r := newRig(t, "retry", codextest.FakeOptions{}, codextest.HomeOptions{StreamRetries: 1})
	for _, prompt := range []string{"retry please", "disconnect please"} {
		t.Run(prompt, func(t *testing.T) {
			t0 := time.Now()
			ms := r.server.turn(r.thread, prompt, nil, nil)
			if st, e := turnStatus(t, ms); st != "completed" {
				t.Fatalf("turn %s %v", st, e)
			}
			var notice map[string]any
			for _, m := range byMethod(ms, "error") {
				if p := m.param(); p["willRetry"] == true {
					notice = p
				}
			}
			if notice == nil {
				t.Fatalf("no error notification with willRetry in:\n%s", dumpMethods(ms))
			}
			if e := notice["error"].(map[string]any); !strings.HasPrefix(e["message"].(string), "Reconnecting... 1/1") {
				t.Errorf("retry notice = %v", notice)
			}
			got := items(ms, "item/completed", "agentMessage")
			if len(got) == 0 || got[len(got)-1]["text"] != codextest.PlainAnswer {
				t.Errorf("final answers = %v", got)
			}
			t.Logf("%s: %v", prompt, time.Since(t0).Round(time.Millisecond))
		})
	}
}

func TestSmokeResumeAfterRestart(t *testing.T) {
	r := newRig(t, "resume", codextest.FakeOptions{}, codextest.HomeOptions{})
	ms := r.server.turn(r.thread, "say: remembered answer", nil, nil)
	if st, _ := turnStatus(t, ms); st != "completed" {
		t.Fatalf("turn %s", st)
	}
	// A second app-server on the same CODEX_HOME, as after a host restart.
	_ = r.server.in.Close()
	<-r.server.waited
	b := startAppServer(t, "resume", r.env, r.dir)
	res, _ := b.call("thread/resume", map[string]any{"threadId": r.thread})
	var rr struct {
		Thread struct {
			ID    string `json:"id"`
			Turns []struct {
				Status string           `json:"status"`
				Items  []map[string]any `json:"items"`
			} `json:"turns"`
		} `json:"thread"`
	}
	if err := json.Unmarshal(res, &rr); err != nil || rr.Thread.ID != r.thread || len(rr.Thread.Turns) != 1 {
		t.Fatalf("thread/resume: %s %v", res, err)
	}
	var texts []string
	for _, it := range rr.Thread.Turns[0].Items {
		if s, ok := it["text"].(string); ok {
			texts = append(texts, s)
		}
	}
	if !containsText(texts, "remembered answer") {
		t.Errorf("resumed history = %v", rr.Thread.Turns[0].Items)
	}
	ms = b.turn(r.thread, "say: after the restart", nil, nil)
	if st, _ := turnStatus(t, ms); st != "completed" {
		t.Fatalf("turn %s", st)
	}
	reqs := r.fake.Requests()
	last := reqs[len(reqs)-1]
	if !containsText(last.Prompts(), "say: remembered answer") || !containsText(last.AssistantTexts(), "remembered answer") {
		t.Errorf("the turn after resume lost the context: prompts %q answers %q", last.Prompts(), last.AssistantTexts())
	}
}
