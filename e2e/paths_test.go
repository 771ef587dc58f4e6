package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// TestEveryPath walks every user action the help lists, for every agent:
// one `lookout` (the demo, or `--agent codex|claude|opencode` against the
// agent's real program and the project's fake model) per agent in tmux,
// and the rows of pathRows in sequence in that one session. Each row
// presses its keys, then checks the effect where it lands (the fake
// model's recorded request, a file the command did or did not write, the
// host's journal through `lookout export`) and on screen. A row starts and
// ends with the session idle and the composer empty and focused, so rows
// are independent but for what the session holds; a binding added later
// joins the table.
func TestEveryPath(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	for _, ag := range pathAgents {
		t.Run(ag.name, func(t *testing.T) {
			t0 := time.Now()
			a := startAgentTerm(t, ag)
			for _, row := range pathRows {
				if !row.agents.has(ag.name) {
					continue
				}
				r0 := time.Now()
				if !t.Run(row.name, func(t *testing.T) { row.run(t, a.on(t)) }) {
					// Later rows run in the same session: stop at the first
					// failure, its screen is the one to read.
					t.FailNow()
				}
				t.Logf("%s: %v", row.name, time.Since(r0).Round(time.Millisecond))
			}
			t.Logf("%s: all rows in %v", ag.name, time.Since(t0).Round(time.Millisecond))
		})
	}
}

// agentSet names the agents a row applies to.
type agentSet []string

func (s agentSet) has(name string) bool { return slices.Contains(s, name) }

var (
	pathAllAgents  = agentSet{"demo", "codex", "claude", "opencode"}
	pathRealAgents = agentSet{"codex", "claude", "opencode"}
)

// agentTerm is the one terminal, host and agent a table shares.
type agentTerm struct {
	*term
	agent pathAgent
	bin   string
	env   []string // the test's environment for lookout's client commands
	dir   string   // lookout's working directory: exports land here
	work  string   // the agent's working directory: commands run here
	data  string   // the embedded host's data directory
	// calls reads the fake model's requests (nil for the demo).
	calls func() []modelCall
	// compactions counts the fake model's compaction requests (nil for
	// the demo).
	compactions func() int
	// comm is the agent process's name in /proc, to check that none
	// outlives lookout ("" for the demo).
	comm string
	// st is what the rows of one table share as they go.
	st *pathState
}

// pathState is what the rows leave for the next ones.
type pathState struct {
	// session is the id of the session on screen; first is the one
	// lookout opened.
	session, first string
	// firstPrompt is the first session's prompt (the "send" row's),
	// freshPrompt the one sent in the session ctrl+n made.
	firstPrompt, freshPrompt string
	// compacted is set once the first session's context was compacted.
	compacted bool
	// sessionCommand is the command approved for the first session.
	sessionCommand string
	// n numbers the markers rows write, unique per table.
	n int
}

// on is a for the subtest t: its failures go to t.
func (a *agentTerm) on(t *testing.T) *agentTerm {
	b := *a
	tm := *a.term
	tm.t = t
	b.term = &tm
	return &b
}

// mark is a marker unique in this table's session, for a row's prompts
// and files.
func (a *agentTerm) mark(what string) string {
	a.st.n++
	return fmt.Sprintf("%s%d", what, a.st.n)
}

func startAgentTerm(t *testing.T, ag pathAgent) *agentTerm {
	t.Helper()
	dir, bin, env := setup(t)
	work := agenttest.Workdir(t)
	l := ag.launch(t)
	editor := filepath.Join(dir, "editor.sh")
	// The editor adds to the draft's line, as a person typing at its end.
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/$/ edited-in-editor/' \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	a := &agentTerm{agent: ag, bin: bin, env: env, dir: dir, work: work, data: filepath.Join(dir, "host"), calls: l.calls, compactions: l.compactions, st: &pathState{}}
	if l.bin != "" {
		a.comm = filepath.Base(l.bin)
	}
	vars := append(agentEnvVars(l.env), "VISUAL="+shellQuote(editor))
	a.term = startTerm(t, dir, env, fmt.Sprintf("env %s %s %s --cwd %s --data %s --theme dark --log %s",
		strings.Join(vars, " "), bin, l.flags, shellQuote(work), shellQuote(a.data), shellQuote(filepath.Join(dir, "client.log"))))
	a.waitFor("the session, live", func(s string) bool {
		return emptyComposer(s) && screenIdle(s) && !strings.Contains(s, "Connecting")
	})
	ids := a.sessionIDs()
	if len(ids) != 1 {
		t.Fatalf("the host holds %d sessions at the start, want the one on screen: %v", len(ids), ids)
	}
	a.st.session, a.st.first = ids[0], ids[0]
	return a
}

// statusBar is the screen's last line.
func statusBar(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return lines[len(lines)-1]
}

// screenIdle: the status bar says no turn runs (idle, or how the last
// one ended) and no approval waits.
func screenIdle(s string) bool {
	bar := statusBar(s)
	return !strings.Contains(bar, "running") && (strings.Contains(bar, "idle") || strings.Contains(bar, "last turn ")) &&
		!strings.Contains(bar, " queued") && !strings.Contains(s, "Approval needed")
}

// promptLine is the composer's first line (the line under its rule).
func promptLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	for i := len(lines) - 1; i > 0; i-- {
		if strings.HasPrefix(lines[i], "›") {
			return lines[i]
		}
	}
	return ""
}

// emptyComposer: the composer shows its placeholder.
func emptyComposer(s string) bool { return strings.Contains(promptLine(s), "Write a prompt") }

// sessionIDs lists the host's sessions, most recently updated first.
func (a *agentTerm) sessionIDs() []string {
	a.t.Helper()
	out := a.lookout("sessions", "--json")
	var list []struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		a.t.Fatalf("lookout sessions --json: %v\n%s", err, out)
	}
	var ids []string
	for _, s := range list {
		ids = append(ids, s.SessionID)
	}
	return ids
}

// lookout runs a client command of lookout against the embedded host.
func (a *agentTerm) lookout(args ...string) string {
	a.t.Helper()
	cmd := exec.Command(a.bin, append(args, "--data", a.data)...)
	cmd.Env = a.env
	cmd.Dir = a.dir
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		a.t.Fatalf("lookout %v: %v\n%s%s", args, err, out, stderr)
	}
	return string(out)
}

// journalItem is an item of `lookout export --format json`.
type journalItem struct {
	Kind     string `json:"kind"`
	Status   string `json:"status"`
	Text     string `json:"text"`
	ToolName string `json:"toolName"`
	Error    string `json:"error"`
	Output   string `json:"output"`
	TurnID   string `json:"turnId"`
	Steered  bool   `json:"steered"`
	Input    struct {
		Command any `json:"command"`
	} `json:"input"`
}

// journal is the session's folded state, as `lookout export` prints it.
type journal struct {
	Items            []journalItem     `json:"items"`
	ActiveTurn       json.RawMessage   `json:"activeTurn"`
	QueuedTurns      []json.RawMessage `json:"queuedTurns"`
	PendingApprovals []json.RawMessage `json:"pendingApprovals"`
}

func (a *agentTerm) journal() journal {
	a.t.Helper()
	out := a.lookout("export", "--session", a.st.session, "--format", "json")
	var j journal
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		a.t.Fatalf("lookout export: %v\n%s", err, out)
	}
	return j
}

func (j journal) idle() bool {
	return (len(j.ActiveTurn) == 0 || string(j.ActiveTurn) == "null") && len(j.QueuedTurns) == 0 && len(j.PendingApprovals) == 0
}

// lastItem is the newest item of kind, or a zero item.
func (j journal) lastItem(kind string) journalItem {
	for i := len(j.Items) - 1; i >= 0; i-- {
		if j.Items[i].Kind == kind {
			return j.Items[i]
		}
	}
	return journalItem{}
}

// userTexts are the session's prompts as the host recorded them.
func (j journal) userTexts() []string {
	var out []string
	for _, it := range j.Items {
		if it.Kind == "userMessage" {
			out = append(out, it.Text)
		}
	}
	return out
}

// settle waits until the screen and the host agree the session is idle:
// no turn running or queued, no approval waiting.
func (a *agentTerm) settle() string {
	a.t.Helper()
	s := a.waitFor("the session to be idle on screen", screenIdle)
	deadline := time.Now().Add(waitLimit)
	for !a.journal().idle() {
		if time.Now().After(deadline) {
			a.t.Fatalf("the host's session never went idle; screen:\n%s", a.screen())
		}
		time.Sleep(200 * time.Millisecond)
	}
	return s
}

// callsSince returns the model calls after the first n (nil for the demo).
func (a *agentTerm) callsSince(n int) []modelCall {
	if a.calls == nil {
		return nil
	}
	c := a.calls()
	if n > len(c) {
		n = len(c)
	}
	return c[n:]
}

func (a *agentTerm) callCount() int {
	if a.calls == nil {
		return 0
	}
	return len(a.calls())
}

// waitCall waits for a model call after the first n that satisfies cond.
func (a *agentTerm) waitCall(n int, what string, cond func(modelCall) bool) modelCall {
	a.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		for _, c := range a.callsSince(n) {
			if cond(c) {
				return c
			}
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("no model call %s; calls since %d: %+v\nscreen:\n%s", what, n, a.callsSince(n), a.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// send types text into the empty composer and presses enter.
func (a *agentTerm) send(text string) {
	a.t.Helper()
	a.typeText(text)
	a.waitFor("the draft in the composer", func(s string) bool { return strings.Contains(promptLine(s), firstWords(text)) })
	a.keys("Enter")
	a.waitFor("the composer to empty", emptyComposer)
}

// firstWords is the start of text that fits the composer's line.
func firstWords(text string) string {
	if r := []rune(text); len(r) > 60 {
		return string(r[:60])
	}
	return text
}

// runPrompt asks the agent to run command (the demo's tool runs its own).
func (a *agentTerm) runPrompt(command string) string {
	if a.agent.demo() {
		return "tool " + command
	}
	return "run: " + command
}

// markerCommand writes file in the agent's directory and prints a text
// that differs from the command line: the command that ran and its output.
func markerCommand(file, word string) string {
	return fmt.Sprintf("touch %s && printf 'ran-%%s\\n' %s", file, word)
}

// startSlow sends a prompt whose turn streams until interrupted, and
// waits until its answer streams: the transcript's last line, the newest
// answer's, shows it (lines above may hold an earlier slow answer).
func (a *agentTerm) startSlow() {
	a.t.Helper()
	a.send("slow " + a.mark("stream"))
	a.waitFor("the slow answer streaming", func(s string) bool {
		return strings.Contains(lastTranscriptLine(s), strings.TrimSpace(a.agent.slowDelta)) && strings.Contains(statusBar(s), "running")
	})
}

// lastTranscriptLine is the transcript's last line with text, above the
// composer's rule, without the scroll bar.
func lastTranscriptLine(s string) string {
	lines := strings.Split(s, "\n")
	i := len(lines) - 1
	for i >= 0 && !strings.HasPrefix(lines[i], "prompt ") {
		i--
	}
	for i--; i >= 0; i-- {
		if l := strings.TrimSpace(strings.TrimRight(lines[i], " │┃")); l != "" {
			return l
		}
	}
	return ""
}

// waitApproval waits for the approval bar of a command.
func (a *agentTerm) waitApproval() string {
	a.t.Helper()
	return a.waitFor("the approval", func(s string) bool { return strings.Contains(s, "Approval needed") })
}
