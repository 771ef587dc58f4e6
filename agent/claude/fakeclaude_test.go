package claude_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/internal/leakcheck"
	"github.com/lookout-sh/lookout/model"
)

// The test binary doubles as a scripted stand-in for Claude Code, for the
// faults the real one cannot be made to show on cue: output that is not
// stream-json, a session it cannot resume, a start that fails, questions
// Lookout cannot answer. FAKE_CLAUDE_MODE selects the script (a LOOKOUT_*
// name would not reach the child: the bridge drops those).

const fakeModeEnv = "FAKE_CLAUDE_MODE"

func TestMain(m *testing.M) {
	if mode, ok := os.LookupEnv(fakeModeEnv); ok {
		os.Exit(fakeClaude(mode, os.Args[1:]))
	}
	leakcheck.Main(m)
}

// fakeClaude plays Claude Code's side of the stream-json protocol. Modes:
// "start-fails" exits at once with a message on stderr; "no-resume"
// refuses every --resume like Claude Code does for an unknown session;
// anything else serves turns whose prompt picks the answer: "garbage"
// writes lines that are not stream-json around a normal answer,
// "elicit" asks a question Lookout cannot answer and reports the reply,
// "die" exits mid-answer; any other prompt is echoed.
func fakeClaude(mode string, args []string) int {
	out := bufio.NewWriter(os.Stdout)
	emit := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = out.Write(append(b, '\n')) // a bufio.Writer: Flush says
		out.Flush()
	}
	raw := func(s string) {
		_, _ = out.WriteString(s + "\n")
		out.Flush()
	}
	if mode == "start-fails" {
		fmt.Fprintln(os.Stderr, "boom: the fake cannot start")
		return 3
	}
	session := fmt.Sprintf("fake-%d", time.Now().UnixNano())
	if i := slices.Index(args, "--resume"); i >= 0 && i+1 < len(args) {
		if mode == "no-resume" {
			msg := "No conversation found with session ID: " + args[i+1]
			emit(map[string]any{"type": "result", "subtype": "error_during_execution", "is_error": true, "errors": []string{msg}})
			fmt.Fprintln(os.Stderr, msg)
			return 1
		}
		session = args[i+1]
	}
	cwd, _ := os.Getwd()
	text := func(msgID, s string) {
		emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "message_start", "message": map[string]any{"id": msgID, "model": "fake-model", "usage": map[string]any{"input_tokens": 3}}}})
		emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}})
		emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": s}}})
		emit(map[string]any{"type": "assistant", "message": map[string]any{"id": msgID, "model": "fake-model", "content": []any{map[string]any{"type": "text", "text": s}}}})
		emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "content_block_stop", "index": 0}})
	}
	turn := 0
	// A result counts this process's use so far, as Claude Code's does: a
	// resumed process starts again from nothing.
	result := func(s string) {
		emit(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": s, "session_id": session,
			"total_cost_usd": 0.5 * float64(turn), "modelUsage": map[string]any{"fake-model": map[string]any{"inputTokens": 3 * turn, "outputTokens": turn, "contextWindow": 1000}}})
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		var m struct {
			Type      string `json:"type"`
			RequestID string `json:"request_id"`
			Request   struct {
				Subtype string `json:"subtype"`
			} `json:"request"`
			Response map[string]any `json:"response"`
			Message  struct {
				Content string `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Type == "control_request" && m.Request.Subtype == "initialize":
			emit(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": m.RequestID, "response": map[string]any{}}})
		case m.Type == "control_request":
			emit(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": m.RequestID, "response": map[string]any{}}})
		case m.Type == "user":
			turn++
			msgID := fmt.Sprintf("msg_%d", turn)
			emit(map[string]any{"type": "system", "subtype": "init", "session_id": session, "model": "fake-model", "cwd": cwd})
			switch p := m.Message.Content; p {
			case "garbage":
				raw("this is not json")
				raw(`{"no":"type"}`)
				raw(`{"type":"stream_event","event":{"type":"content_block_start","index":"nine"}}`)
				text(msgID, "still answering")
				result("still answering")
			case "elicit":
				emit(map[string]any{"type": "control_request", "request_id": "q-1", "request": map[string]any{"subtype": "elicitation", "message": "pick one"}})
				if !in.Scan() {
					return 1
				}
				text(msgID, "reply: "+in.Text())
				result("replied")
			case "die":
				emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "message_start", "message": map[string]any{"id": msgID}}})
				emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}})
				emit(map[string]any{"type": "stream_event", "event": map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "half an answ"}}})
				fmt.Fprintln(os.Stderr, "fatal: the fake died")
				return 7
			default:
				text(msgID, "echo: "+p)
				result("echo: " + p)
			}
		}
	}
	return 0
}

// fakeRig is a rig whose Claude Code is the test binary playing mode.
func fakeRig(t *testing.T, mode string) *rig {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return newRig(t, rigOptions{bin: exe, home: claudetest.HomeOptions{Extra: []string{fakeModeEnv + "=" + mode}}})
}

func warnings(seen []*model.Event, code string) []*model.Warning {
	var out []*model.Warning
	for _, ev := range seen {
		if ev.Method == model.MethodWarning && ev.Warning.Code == code {
			out = append(out, ev.Warning)
		}
	}
	return out
}

func TestMalformedOutputIsAWarningNotAWedge(t *testing.T) {
	r := fakeRig(t, "serve")
	done, seen := r.Turn("garbage")
	agenttest.WantCompleted(t, done)
	if w := warnings(seen, "malformedAgentOutput"); len(w) != 3 || !strings.Contains(w[0].Message, "this is not json") {
		t.Errorf("warnings %+v, want one per unreadable line", w)
	}
	if msg := r.One(model.KindAgentMessage, done.TurnID); msg.Text() != "still answering" {
		t.Errorf("answer %q", msg.Text())
	}
	next, _ := r.Turn("again")
	agenttest.WantCompleted(t, next)
	if r.StateString("model") != "fake-model" || string(r.State.Value("costUsd")) != "1" {
		t.Errorf("state: %s", r.State.Encode())
	}
}

// Usage and cost are the session's: a Claude Code process killed (or
// resumed) counts from nothing again, and the session's totals must not
// drop with it (1.6k tokens became 132).
func TestUsageOutlivesAClaudeCodeProcess(t *testing.T) {
	r := fakeRig(t, "serve")
	for _, p := range []string{"one", "two"} {
		done, _ := r.Turn(p)
		agenttest.WantCompleted(t, done)
	}
	before := usageTotal(t, r)
	if before != 8 || string(r.State.Value("costUsd")) != "1" {
		t.Fatalf("after two turns: %d tokens, cost %s; want 8 and 1", before, r.State.Value("costUsd"))
	}
	died, _ := r.Turn("die")
	if died.Status == model.StatusCompleted {
		t.Fatalf("the dying turn completed")
	}
	done, _ := r.Turn("three")
	agenttest.WantCompleted(t, done)
	if after := usageTotal(t, r); after != before+4 {
		t.Fatalf("after Claude Code restarted: %d tokens, want %d (the session's, not the new process's)", after, before+4)
	}
	if cost := string(r.State.Value("costUsd")); cost != "1.5" {
		t.Fatalf("cost after the restart %s, want 1.5", cost)
	}
}

func usageTotal(t *testing.T, r *rig) int64 {
	t.Helper()
	var u struct{ TotalTokens int64 }
	if err := json.Unmarshal(r.State.Value("usage"), &u); err != nil {
		t.Fatalf("usage %s: %v", r.State.Value("usage"), err)
	}
	return u.TotalTokens
}

func TestQuestionsLookoutCannotAnswerAreRefused(t *testing.T) {
	r := fakeRig(t, "serve")
	done, seen := r.Turn("elicit")
	agenttest.WantCompleted(t, done)
	if w := warnings(seen, "unsupportedRequest"); len(w) != 1 || !strings.Contains(w[0].Message, "elicitation") {
		t.Errorf("warnings %+v", w)
	}
	reply := r.One(model.KindAgentMessage, done.TurnID).Text()
	if !strings.Contains(reply, `"subtype":"error"`) || !strings.Contains(reply, `"request_id":"q-1"`) {
		t.Errorf("Claude Code got %s", reply)
	}
}

func TestClaudeDyingMidTurnFailsTheTurnWithItsReason(t *testing.T) {
	r := fakeRig(t, "serve")
	done, _ := r.Turn("die")
	if done.Status != model.StatusFailed || done.TurnError.Code != "agentExited" ||
		!strings.Contains(done.TurnError.Message, "exit status 7") || !strings.Contains(done.TurnError.Message, "the fake died") {
		t.Fatalf("turn ended %s %+v", done.Status, done.TurnError)
	}
	if msg := r.One(model.KindAgentMessage, done.TurnID); msg.Status != model.StatusFailed || msg.Text() != "half an answ" {
		t.Errorf("cut answer %s %q", msg.Status, msg.Text())
	}
	next, _ := r.Turn("after")
	agenttest.WantCompleted(t, next)
}

func TestAStartThatFailsSaysWhy(t *testing.T) {
	r := fakeRig(t, "start-fails")
	done, _ := r.Turn("hello")
	if done.Status != model.StatusFailed || done.TurnError.Code != "agentStartFailed" || !strings.Contains(done.TurnError.Message, "boom: the fake cannot start") {
		t.Fatalf("turn ended %s %+v", done.Status, done.TurnError)
	}
}

func TestASessionClaudeCannotResumeStartsANewOne(t *testing.T) {
	r := fakeRig(t, "serve")
	first, _ := r.Turn("hello")
	agenttest.WantCompleted(t, first)
	old := r.StateString("agentSessionId")
	r.env[len(r.env)-1] = fakeModeEnv + "=no-resume" // Extra comes last
	r.Host.Close()
	r.StartHost()
	r.Subscribe()
	done, seen := r.Turn("hello again")
	agenttest.WantCompleted(t, done)
	if w := warnings(seen, "sessionNotResumed"); len(w) != 1 || !strings.Contains(w[0].Message, old) {
		t.Errorf("warnings %+v", w)
	}
	// The transcript says so too: the warning is gone once the turn ends.
	if e := r.One(model.KindError, done.TurnID); !strings.Contains(e.String("message"), old) {
		t.Errorf("no transcript item names the lost session %s: %+v", old, e)
	}
	if now := r.StateString("agentSessionId"); now == old || now == "" {
		t.Errorf("session %q after a failed resume of %q", now, old)
	}
}
