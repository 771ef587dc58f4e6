package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Each test below drives the real Claude Code through a real host and
// asserts the transcript the client folds: what is Claude Code's own. The
// behaviours every bridge shows are the contract suite's (contract_test.go).

// TestDenyReasonReachesTheModel: a deny's reason goes to Claude Code with
// the permission response's message, and the model's next request carries
// it in the refused tool's result (issue 25).
func TestDenyReasonReachesTheModel(t *testing.T) {
	const reason = "Do not touch files; list them instead."
	r := newRig(t, rigOptions{})
	turn := r.Submit("run: touch reasoned.txt")
	ask, _ := r.Until("the approval", agenttest.IsApproval)
	before := len(r.fake.Requests())
	r.Deny(ask.ApprovalID, reason)
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	reqs := r.fake.Requests()[before:]
	if len(reqs) == 0 {
		t.Fatal("no model request after the deny")
	}
	var result *claudetest.Block
	for _, m := range reqs[0].Messages {
		for i, b := range m.Blocks {
			if b.Type == "tool_result" {
				result = &m.Blocks[i]
			}
		}
	}
	if result == nil || !result.IsError || !strings.Contains(result.Text, reason) {
		t.Errorf("the next request's tool result is %+v, want an error carrying %q", result, reason)
	}
	if _, err := os.Stat(filepath.Join(r.work, "reasoned.txt")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestEditsAreFileChangesWithDiffs(t *testing.T) {
	r := newRig(t, rigOptions{})
	path := filepath.Join(r.work, "notes.txt")
	turn := r.Submit("write: " + path)
	ask, _ := r.Until("the write's approval", agenttest.IsApproval)
	fc := r.State.Item(ask.ItemID)
	if fc == nil || fc.Kind != model.KindFileChange || fc.Status != model.StatusInProgress {
		t.Fatalf("approval is about %+v, want an open fileChange", fc)
	}
	if ch := fc.FileChanges(); len(ch) != 1 || ch[0].Kind != "add" || !strings.Contains(ch[0].Diff, "+beta") {
		t.Errorf("proposed change %+v", ch)
	}
	if a := r.State.View().Approvals[0]; a.Summary != "Write "+path || !slices.Contains(a.Options, "approveForSession") {
		t.Errorf("approval %q %v", a.Summary, a.Options)
	}
	r.Respond(ask.ApprovalID, "approve")
	done, _ := r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	add := r.One(model.KindFileChange, turn)
	if ch := add.FileChanges(); add.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Path != path || ch[0].Kind != "add" ||
		ch[0].Diff != "@@ -0,0 +1,3 @@\n+alpha\n+beta\n+gamma\n" {
		t.Errorf("write = %s %+v", add.Status, ch)
	}

	turn = r.Submit("edit: " + path)
	ask, _ = r.Until("the edit's approval", agenttest.IsApproval)
	fc = r.State.Item(ask.ItemID)
	want := "@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"
	if ch := fc.FileChanges(); fc.Kind != model.KindFileChange || len(ch) != 1 || ch[0].Diff != want {
		t.Errorf("proposed edit %+v", ch)
	}
	r.Respond(ask.ApprovalID, "approve")
	done, _ = r.Until("the turn's end", hosttest.TurnCompleted(turn))
	agenttest.WantCompleted(t, done)
	edit := r.One(model.KindFileChange, turn)
	if ch := edit.FileChanges(); edit.Status != model.StatusCompleted || len(ch) != 1 || ch[0].Kind != "update" || ch[0].Diff != want {
		t.Errorf("edit = %s %+v", edit.Status, ch)
	}
	if read := r.One(model.KindToolCall, turn); read.ToolName() != "Read" || read.Status != model.StatusCompleted || !strings.Contains(read.Output(), "beta") {
		t.Errorf("read = %s %s %q", read.ToolName(), read.Status, read.Output())
	}
	if b, _ := os.ReadFile(path); string(b) != "alpha\nBETA\ngamma\n" {
		t.Errorf("file holds %q", b)
	}
}

func TestModelErrorsFailTheTurnReadably(t *testing.T) {
	r := newRig(t, rigOptions{})
	done, _ := r.Turn("model error please")
	if done.Status != model.StatusFailed || done.TurnError == nil || done.TurnError.Code != "badRequest" || !strings.Contains(done.TurnError.Message, claudetest.BadRequestMessage) {
		t.Fatalf("turn ended %s %+v, want failed badRequest", done.Status, done.TurnError)
	}
	if e := r.One(model.KindError, done.TurnID); !strings.Contains(e.ErrorMessage(), claudetest.BadRequestMessage) {
		t.Errorf("error item %q", e.ErrorMessage())
	}
	if n := len(r.Items(model.KindAgentMessage, done.TurnID)); n != 0 {
		t.Errorf("%d answers in a failed turn", n)
	}
	// A server error is retried (once, here), then fails the turn.
	done, seen := r.Turn("http 500 please")
	if done.Status != model.StatusFailed || done.TurnError.Code != "serverError" || !strings.Contains(done.TurnError.Message, claudetest.ErrorMessage) {
		t.Errorf("turn ended %s %+v, want failed serverError", done.Status, done.TurnError)
	}
	if !slices.ContainsFunc(seen, func(ev *model.Event) bool { return ev.Method == model.MethodWarning }) {
		t.Error("no retry warning before the failure")
	}
	// The session goes on.
	next, _ := r.Turn("say: still here")
	agenttest.WantCompleted(t, next)
}

func TestRetryIsAWarning(t *testing.T) {
	r := newRig(t, rigOptions{home: claudetest.HomeOptions{MaxRetries: 2}})
	done, seen := r.Turn("retry please")
	agenttest.WantCompleted(t, done)
	var w *model.Warning
	for _, ev := range seen {
		if ev.Method == model.MethodWarning && ev.Warning.WillRetry {
			w = ev.Warning
		}
	}
	if w == nil || !w.Retryable || w.Attempt != 1 || w.MaxAttempts != 2 || w.Code != "serverError" || !strings.Contains(w.Message, "500") {
		t.Fatalf("retry warning = %+v", w)
	}
	if len(r.Items(model.KindError, done.TurnID)) != 0 {
		t.Error("a retried request left an error item in the history")
	}
	if r.One(model.KindAgentMessage, done.TurnID).Text() != claudetest.PlainAnswer {
		t.Error("no answer after the retry")
	}
}

// TestCompactIsAContextCompaction: the agent command compact is Claude
// Code's own /compact (the fake model gets its compaction request), the
// session's commands are what Claude Code's initialize answer lists, and
// a "/word" Claude Code does not know, sent as a prompt, reaches the
// model as text.
func TestCompactIsAContextCompaction(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: something to summarise")
	agenttest.WantCompleted(t, first)
	var offered []host.AgentCommand
	if err := json.Unmarshal(r.State.Value(host.StateCommands), &offered); err != nil ||
		!slices.ContainsFunc(offered, func(c host.AgentCommand) bool { return c.Name == "compact" && c.Description != "" }) || len(offered) < 5 {
		t.Fatalf("Claude Code's commands: %.300s (%v)", r.State.Value(host.StateCommands), err)
	}
	before := len(r.fake.Requests())
	done, _ := r.Command("/compact", "compact")
	agenttest.WantCompleted(t, done)
	if c := r.One(model.KindContextCompaction, done.TurnID); c.Status != model.StatusCompleted {
		t.Errorf("compaction ended %s", c.Status)
	}
	reqs := r.fake.Requests()[before:]
	if len(reqs) != 1 || !reqs[0].IsCompaction() {
		t.Fatalf("the model got %d requests after /compact, want one compaction request", len(reqs))
	}
	next, _ := r.Turn("say: after the compaction")
	agenttest.WantCompleted(t, next)

	plain, _ := r.Turn("/nosuch please")
	agenttest.WantCompleted(t, plain)
	if got := r.LastPrompts(); len(got) == 0 || got[len(got)-1] != "/nosuch please" {
		t.Fatalf("an unknown /word sent as a prompt reached the model as %q", got)
	}
}

// /cost is a command Claude Code runs itself; its aligned lines reach the
// transcript as lines (fenced), not joined into one paragraph.
func TestCostOutputKeepsItsLines(t *testing.T) {
	r := newRig(t, rigOptions{})
	first, _ := r.Turn("say: something that costs")
	agenttest.WantCompleted(t, first)
	done, _ := r.Turn("/cost")
	agenttest.WantCompleted(t, done)
	msg := r.One(model.KindAgentMessage, done.TurnID)
	text := msg.Text()
	if !strings.HasPrefix(text, "```") || strings.Count(text, "\n") < 3 {
		t.Fatalf("/cost output is not kept line by line:\n%s", text)
	}
}
