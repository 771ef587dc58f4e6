package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/model"
)

// DemoAgent is the scripted demo agent: deterministic, paced by
// Options.Pace, and rich enough to show every item kind. Every prompt gets
// a reasoning item (summary.0 and summary.1 streamed) and a markdown answer
// streamed in small deltas; keywords in the prompt add scenarios (see
// DemoScenarios). It keeps no state and is safe for concurrent use.
type DemoAgent struct{}

// DemoScenarios documents the prompt keywords the demo agent understands,
// as (keyword, what happens) pairs, in the order they run.
var DemoScenarios = [][2]string{
	{"launch fail", "the launch fails: turn/completed failed with no turn/started"},
	{"warning", "two model-request warnings (attempts 1 and 2 of 3, willRetry), then the turn goes on"},
	{"compact", "a contextCompaction item (inProgress, then completed)"},
	{"huge command", "as tool, with a command of about 1,300 characters (DemoHugeCommand) to approve"},
	{"tool", "a toolCall: inputText streams, ready, waitingUser with approval/requested; approve -> running with streaming output, completed exitCode 0; deny -> failed, its error quoting the deny's reason"},
	{"fail tool", "a toolCall that runs without approval and fails (exitCode 1)"},
	{"bad tool input", "a toolCall whose streamed input is not valid JSON: inputStreaming -> failed"},
	{"multiple choice", "as question, but several options may be picked"},
	{"question", "a question (waitingUser) with three options and free text; the answer ends it answered and the reply names it; an interrupt ends it cancelled"},
	{"plan", "a plan item revised six times (a step added at the third, with an explanation; every step completed at the last), with notes between; it ends with the turn"},
	{"big output", "a toolCall whose output passes the 64 KiB field bound: cut, listed in truncated"},
	{"big answer", "an answer past the 1 MiB text bound, streamed in 64 KiB chunks: cut, listed in truncated"},
	{"unknown kind", `an item of kind "diffPreview" no client knows, with extra fields`},
	{"welcome", "the demo session's welcome: what Lookout shows and what to try"},
	{"fail turn", "a partial answer, an error item, then turn/completed failed (error modelError)"},
	{"slow", "the answer starts, then the turn keeps running until interrupted (turn/interrupt); text steered into it (turn/steer) gets a reply of its own"},
	{"long", "a long answer: 2,000 lines streamed in chunks"},
}

// demoHistoryPrompts are the turns of the demo session's scripted history.
var demoHistoryPrompts = []string{
	"Give me a tour of this project",
	"Run the tests with a tool",
	"Now try a fail tool run",
	"compact the context, then show an unknown kind",
	"fail turn, to show what an error looks like",
	"Welcome! What can I try here?", // last: the demo opens on it
}

// Launch refuses prompts that ask for a launch failure.
func (DemoAgent) Launch(prompt string) error {
	if strings.Contains(strings.ToLower(prompt), "launch fail") {
		return errors.New("the demo agent was asked to fail its launch")
	}
	return nil
}

// Run plays the prompt's scenarios.
func (DemoAgent) Run(ctx context.Context, t *Turn) error {
	p := strings.ToLower(t.Prompt())
	has := func(k string) bool { return strings.Contains(p, k) }
	if t.SessionValue("title") == nil {
		if err := t.SetState(map[string]any{"title": demoTitle(t.Prompt())}); err != nil {
			return err
		}
	}
	if has("warning") {
		for attempt := 1; attempt <= 2; attempt++ {
			if err := t.Warning(model.Warning{RequestKind: "turn", Code: "rateLimited",
				Message:   fmt.Sprintf("the model provider is rate limiting requests (attempt %d of 3)", attempt),
				Retryable: true, Attempt: attempt, MaxAttempts: 3, WillRetry: true}); err != nil {
				return err
			}
			if err := t.Pace(ctx); err != nil {
				return err
			}
		}
	}
	if err := demoReasoning(ctx, t); err != nil {
		return err
	}
	if has("compact") {
		if err := demoCompaction(ctx, t); err != nil {
			return err
		}
	}
	switch {
	case has("bad tool input"):
		if err := demoBadToolInput(ctx, t); err != nil {
			return err
		}
	case has("fail tool"):
		if err := demoTool(ctx, t, toolFail); err != nil {
			return err
		}
	case has("huge command"):
		if err := demoTool(ctx, t, toolHugeCommand); err != nil {
			return err
		}
	case has("tool"):
		if err := demoTool(ctx, t, toolApproval); err != nil {
			return err
		}
	}
	if has("multiple choice") || has("question") {
		if err := demoQuestion(ctx, t, has("multiple choice")); err != nil {
			return err
		}
	}
	if has("plan") {
		if err := demoPlan(ctx, t); err != nil {
			return err
		}
	}
	if has("big output") {
		if err := demoTool(ctx, t, toolBig); err != nil {
			return err
		}
	}
	if has("unknown kind") {
		if err := demoUnknownKind(t); err != nil {
			return err
		}
	}
	if has("welcome") {
		return demoMessage(ctx, t, demoWelcome, 16)
	}
	if has("fail turn") {
		return demoFailTurn(ctx, t)
	}
	if has("slow") {
		return demoSlow(ctx, t)
	}
	if has("big answer") {
		return demoMessage(ctx, t, demoBigAnswer(), 64<<10)
	}
	if has("long") {
		return demoMessage(ctx, t, demoLongAnswer(), 1500)
	}
	return demoMessage(ctx, t, demoAnswer(t.Prompt()), 16)
}

func demoTitle(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	if len(line) > 48 {
		line = strings.TrimSpace(cutUTF8(line, 47)) + "…"
	}
	if line == "" {
		line = "Untitled session"
	}
	return line
}

// stream appends text to field of item in chunks of about size bytes,
// pacing between chunks. Chunks end after a space or newline when one is
// near, and never split a UTF-8 sequence.
func stream(ctx context.Context, t *Turn, itemID, field, text string, size int) error {
	for _, c := range chunks(text, size) {
		if err := t.Delta(itemID, field, c); err != nil {
			return err
		}
		if err := t.Pace(ctx); err != nil {
			return err
		}
	}
	return nil
}

func chunks(text string, size int) []string {
	var out []string
	for len(text) > 0 {
		n := min(size, len(text))
		if n < len(text) {
			if i := strings.LastIndexAny(text[:n], " \n"); i >= n/2 {
				n = i + 1
			}
			n = len(cutUTF8(text, n))
			if n == 0 {
				n = min(4, len(text)) // a rune longer than size
			}
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

func demoReasoning(ctx context.Context, t *Turn) error {
	id, err := t.StartItem(model.KindReasoning, model.StatusInProgress, map[string]any{"summary": []string{}})
	if err != nil {
		return err
	}
	parts := []string{
		"**Reading the request.** The user wants a clear answer; I will look at what is asked and what is already known.",
		"**Planning the reply.** A short outline, a list of steps and one code sample should cover it.",
	}
	for i, s := range parts {
		if err := stream(ctx, t, id, fmt.Sprintf("summary.%d", i), s, 24); err != nil {
			return err
		}
	}
	return t.CompleteItem(id, model.StatusCompleted, nil)
}

func demoMessage(ctx context.Context, t *Turn, text string, chunk int) error {
	id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
	if err != nil {
		return err
	}
	if err := stream(ctx, t, id, "text", text, chunk); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusCompleted, nil)
}

func demoAnswer(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	if len(line) > 60 {
		line = cutUTF8(line, 60) + "…"
	}
	return "## " + line + "\n\n" +
		"Here is how I would approach it:\n\n" +
		"1. Read the code around the request.\n" +
		"2. Make the smallest change that works.\n" +
		"3. Run the tests and report back.\n\n" +
		"A few notes:\n\n" +
		"- **Scope:** only the files the request touches.\n" +
		"- **Risk:** low; every step is reversible.\n" +
		"- *Tip:* ask for `tool`, `plan`, `compact`, `warning`, `slow` or `long` to see more.\n\n" +
		"### Example\n\n" +
		"```go\n" +
		"func answer() int {\n" +
		"\treturn 42\n" +
		"}\n" +
		"```\n\n" +
		"That is all for now.\n"
}

// demoWelcome is the answer the demo session ends with, so that Lookout's
// first screen greets rather than shows the error of the turn before it.
const demoWelcome = "## Welcome to Lookout\n\n" +
	"This demo session runs on a host on your machine. Its history above shows every kind of item " +
	"(thinking, tool calls, a file change, an error): scroll up with **pgup** or the wheel.\n\n" +
	"Things to try:\n\n" +
	"- Type a prompt below and press **enter**. Words like `tool`, `warning`, `slow` or `long` show more.\n" +
	"- **tab** moves to the transcript: **↑/↓** select, **enter** expands, **/** searches.\n" +
	"- **?** lists every key; **ctrl+c** twice quits, and the session is kept for next time.\n"

func demoLongAnswer() string {
	var b strings.Builder
	b.WriteString("## A long answer\n\n")
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "%4d. step %d of many\n", i, i)
	}
	return b.String()
}

// demoBigAnswer is an answer past TextBound, numbered paragraphs to about
// 1.1 MiB: the host keeps its first TextBound bytes and says so.
func demoBigAnswer() string {
	var b strings.Builder
	b.WriteString("## A big answer\n\n")
	for i := 1; b.Len() <= TextBound+64<<10; i++ {
		fmt.Fprintf(&b, "Paragraph %d of a big answer. The host keeps the first megabyte of an answer whole; past it, the answer is cut and says so.\n\n", i)
	}
	return b.String()
}

func demoCompaction(ctx context.Context, t *Turn) error {
	id, err := t.StartItem(model.KindContextCompaction, model.StatusInProgress, map[string]any{"tokensBefore": 181234})
	if err != nil {
		return err
	}
	if err := t.Pace(ctx); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusCompleted, map[string]any{"tokensAfter": 23110,
		"note": "Earlier turns were summarised to free context."})
}

type toolMode int

const (
	toolApproval toolMode = iota
	toolHugeCommand
	toolFail
	toolBig
)

// DemoHugeCommand is the command of the "huge command" scenario: about
// 1,300 characters, ending in DemoHugeCommandEnd, so that what is approved
// is far more than one line.
func DemoHugeCommand() string {
	var b strings.Builder
	b.WriteString("set -euo pipefail; ")
	for i := 1; b.Len() < 1250; i++ {
		fmt.Fprintf(&b, "go test -count=1 -run 'TestPart%02d' ./pkg/part%02d/... 2>&1 | tee -a /tmp/parts.log && ", i, i)
	}
	b.WriteString(DemoHugeCommandEnd)
	return b.String()
}

// DemoHugeCommandEnd ends DemoHugeCommand.
const DemoHugeCommandEnd = "rm -rf ./build-cache-END"

func demoTool(ctx context.Context, t *Turn, mode toolMode) error {
	input := map[string]any{"command": "go test ./...", "cwd": "."}
	switch mode {
	case toolFail:
		input["command"] = "go vet ./broken/..."
	case toolBig:
		input["command"] = "cat testdata/big.log"
	case toolHugeCommand:
		input["command"] = DemoHugeCommand()
	}
	inputText, _ := marshalJSON(input) // streamed as an agent would: `>` stays `>`
	id, err := t.StartItem(model.KindToolCall, model.StatusInputStreaming, map[string]any{"toolName": "shell", "inputText": ""})
	if err != nil {
		return err
	}
	if err := stream(ctx, t, id, "inputText", string(inputText), 8); err != nil {
		return err
	}
	if err := t.UpdateItem(id, model.StatusReady, map[string]any{"input": input}); err != nil {
		return err
	}
	if mode == toolApproval || mode == toolHugeCommand {
		if err := t.UpdateItem(id, model.StatusWaitingUser, nil); err != nil {
			return err
		}
		summary := "Run `go test ./...` in the workspace?"
		if mode == toolHugeCommand {
			summary = "Run the whole test matrix in the workspace?"
		}
		ans, err := t.Ask(ctx, ApprovalRequest{ItemID: id, Summary: summary})
		if err != nil {
			return err
		}
		if ans.Decision != model.DecisionApprove {
			msg := "the user denied this command"
			if ans.Reason != "" {
				msg += ": " + ans.Reason
			}
			return t.CompleteItem(id, model.StatusFailed, map[string]any{"error": msg})
		}
	}
	if err := t.UpdateItem(id, model.StatusRunning, map[string]any{"output": ""}); err != nil {
		return err
	}
	switch mode {
	case toolFail:
		if err := stream(ctx, t, id, "output", "# example.com/broken\nbroken/main.go:12:2: undefined: frobnicate\n", 24); err != nil {
			return err
		}
		return t.CompleteItem(id, model.StatusFailed, map[string]any{"exitCode": 1, "error": "command exited with status 1"})
	case toolBig:
		var b strings.Builder
		for i := 0; b.Len() < 80<<10; i++ {
			fmt.Fprintf(&b, "%06d log line with some padding to make it longer than it needs to be\n", i)
		}
		if err := stream(ctx, t, id, "output", b.String(), 4096); err != nil {
			return err
		}
		return t.CompleteItem(id, model.StatusCompleted, map[string]any{"exitCode": 0})
	}
	out := "ok  \tgithub.com/example/app\t0.412s\nok  \tgithub.com/example/app/api\t0.108s\n" +
		"ok  \tgithub.com/example/app/store\t1.020s\nPASS\n"
	if err := stream(ctx, t, id, "output", out, 24); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusCompleted, map[string]any{"exitCode": 0})
}

func demoBadToolInput(ctx context.Context, t *Turn) error {
	id, err := t.StartItem(model.KindToolCall, model.StatusInputStreaming, map[string]any{"toolName": "shell", "inputText": ""})
	if err != nil {
		return err
	}
	if err := stream(ctx, t, id, "inputText", `{"command": "ls -la", "cwd": `, 8); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusFailed, map[string]any{"error": "the tool input is not valid JSON: unexpected end of input"})
}

func demoUnknownKind(t *Turn) error {
	_, err := t.RecordItem("diffPreview", model.StatusCompleted, map[string]any{
		"path":      "host/host.go",
		"additions": 3,
		"deletions": 1,
		"hunks": []any{map[string]any{
			"header": "@@ -10,4 +10,6 @@ func Start(ctx context.Context, opts Options) (*Host, error) {",
			"lines":  []string{" \tif opts.Addr == \"\" {", "-\t\topts.Addr = \"localhost:7777\"", "+\t\topts.Addr = DefaultAddr", "+\t\t// loopback only by default", "+\t}", " }"},
		}},
	})
	return err
}

func demoFailTurn(ctx context.Context, t *Turn) error {
	id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
	if err != nil {
		return err
	}
	if err := stream(ctx, t, id, "text", "Let me look into that. First I will check the ", 12); err != nil {
		return err
	}
	msg := "the model provider answered 500 Internal Server Error three times"
	if _, err := t.RecordItem(model.KindError, model.StatusFailed, map[string]any{"message": msg}); err != nil {
		return err
	}
	return &TurnFailure{Code: "modelError", Message: msg}
}

func demoSlow(ctx context.Context, t *Turn) error {
	steers := make(chan string, 4)
	demoSteers.Store(t.SessionID(), steers)
	defer demoSteers.Delete(t.SessionID())
	id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
	if err != nil {
		return err
	}
	if err := stream(ctx, t, id, "text", "Working on it; this will take a while. ", 12); err != nil {
		return err
	}
	if t.History() {
		return t.CompleteItem(id, model.StatusCompleted, nil)
	}
	tm := time.NewTimer(10 * time.Minute)
	defer tm.Stop()
wait:
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tm.C:
			break wait
		case text := <-steers:
			if _, err := t.RecordItem(model.KindAgentMessage, model.StatusCompleted, map[string]any{"text": demoSteerReply(text)}); err != nil {
				return err
			}
		}
	}
	if err := t.Delta(id, "text", "Done."); err != nil {
		return err
	}
	return t.CompleteItem(id, model.StatusCompleted, nil)
}
