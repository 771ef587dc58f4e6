package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// The answers of wholeHost's agent, by prompt.
var (
	wholeAnswer = hosttest.LongAnswer(200_555)                  // kept whole
	hugeAnswer  = hosttest.LongAnswer(host.TextBound + 100<<10) // cut at 1 MiB
	toolOutput  = strings.Repeat("line of tool output\n", 5000) // 100 KB, cut at 64 KiB
)

// wholeHost starts a durable host on loopback whose agent streams, for
// the prompt "answer", wholeAnswer in 10-byte deltas; for "huge",
// hugeAnswer; for "tool", a tool call's toolOutput.
func wholeHost(t *testing.T, data string) *host.Host {
	t.Helper()
	agent := hosttest.ScriptAgent{
		"answer": func(_ context.Context, t *host.Turn) error {
			return hosttest.StreamItem(t, model.KindAgentMessage, map[string]any{"text": ""}, "text", wholeAnswer, 10)
		},
		"huge": func(_ context.Context, t *host.Turn) error {
			return hosttest.StreamItem(t, model.KindAgentMessage, map[string]any{"text": ""}, "text", hugeAnswer, 4096)
		},
		"tool": func(_ context.Context, t *host.Turn) error {
			return hosttest.StreamItem(t, model.KindToolCall, map[string]any{"toolName": "shell"}, "output", toolOutput, 1000)
		},
	}
	h, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: data, AgentImpl: agent, Agent: "script"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func wholeSession(t *testing.T, h *host.Host) string {
	t.Helper()
	c := hosttest.Dial(t, h)
	defer c.Close()
	var out struct {
		SessionID string `json:"sessionId"`
	}
	c.MustCall(t, "session/create", map[string]any{}, &out)
	return out.SessionID
}

// exportedItem is an item of `lookout export --format json` as these
// tests read it.
type exportedItem struct {
	Kind      string   `json:"kind"`
	Text      string   `json:"text"`
	Output    string   `json:"output"`
	Truncated []string `json:"truncated"`
}

func exportJSON(t *testing.T, h *host.Host, sid string) map[string]exportedItem {
	t.Helper()
	out, code := runCLI(t, "export", h.URL(), "--session", sid, "--token="+h.Token(), "--format", "json", "--until-idle")
	var st struct {
		Items []exportedItem `json:"items"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("export json: exit %d, %d bytes", code, len(out))
	}
	byKind := map[string]exportedItem{}
	for _, it := range st.Items {
		byKind[it.Kind] = it
	}
	return byKind
}

// A 200 KB answer streamed through deltas reaches the client's fold
// (send prints it), the journal (export, json and markdown) and, after
// the host restarts, a replay of its pages (export again), whole.
func TestCLIWholeAnswerEverywhere(t *testing.T) {
	data := t.TempDir()
	h := wholeHost(t, data)
	sid, tok := wholeSession(t, h), "--token="+h.Token()
	out, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "answer")
	if code != 0 || out != wholeAnswer+"\n" {
		t.Fatalf("send: exit %d, printed %d bytes of the %d-byte answer", code, len(out), len(wholeAnswer))
	}
	wantWholeExport := func(when string) {
		t.Helper()
		msg := exportJSON(t, h, sid)[model.KindAgentMessage]
		if msg.Text != wholeAnswer || msg.Truncated != nil {
			t.Fatalf("export json %s: text %d of %d bytes, truncated %v", when, len(msg.Text), len(wholeAnswer), msg.Truncated)
		}
		md, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown")
		if code != 0 || !strings.Contains(md, "## Agent\n\n"+wholeAnswer+"\n") || strings.Contains(md, "truncated") {
			t.Fatalf("export markdown %s: exit %d, the answer is not there whole", when, code)
		}
	}
	wantWholeExport("live")
	h.Close()
	h = wholeHost(t, data)
	wantWholeExport("after a restart")
}

// A 1 MiB-and-more answer is cut at 1 MiB, 100 KB of tool output at
// 64 KiB, and send, export (json and markdown) and watch (readable and
// json) say so.
func TestCLICutAnswersSaySo(t *testing.T) {
	h := wholeHost(t, t.TempDir())
	sid, tok := wholeSession(t, h), "--token="+h.Token()
	out, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "huge")
	if code != 0 || !strings.HasPrefix(out, hugeAnswer[:host.TextBound]+"\n\n[text truncated by host: ") {
		t.Fatalf("send: exit %d; the answer is not printed cut at %d with the note after it", code, host.TextBound)
	}
	if _, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "tool"); code != 0 {
		t.Fatalf("send tool: exit %d", code)
	}
	items := exportJSON(t, h, sid)
	if msg := items[model.KindAgentMessage]; msg.Text != hugeAnswer[:host.TextBound] || len(msg.Truncated) != 1 || msg.Truncated[0] != "text" {
		t.Fatalf("export json: answer %d bytes, truncated %v; want %d, [text]", len(msg.Text), msg.Truncated, host.TextBound)
	}
	if tool := items[model.KindToolCall]; tool.Output != toolOutput[:host.FieldBound] || len(tool.Truncated) != 1 || tool.Truncated[0] != "output" {
		t.Fatalf("export json: output %d bytes, truncated %v; want %d, [output]", len(tool.Output), tool.Truncated, host.FieldBound)
	}
	md, code := runCLI(t, "export", h.URL(), "--session", sid, tok, "--format", "markdown")
	for _, note := range []string{"[text truncated by host: ", "[output truncated by host: "} {
		if code != 0 || !strings.Contains(md, note) {
			t.Fatalf("export markdown: exit %d, no %q", code, note)
		}
	}
	if !strings.Contains(md, hugeAnswer[host.TextBound-200:host.TextBound]+"\n\n[text truncated by host") {
		t.Fatal("export markdown: the note does not follow the answer where it stops")
	}
	lines, code := runCLI(t, "watch", h.URL(), "--session", sid, tok, "--until-idle")
	for _, note := range []string{"agentMessage", "[text truncated by host]", "toolCall", "[output truncated by host]"} {
		if code != 0 || !strings.Contains(lines, note) {
			t.Fatalf("watch: exit %d, no %q in\n%s", code, note, lines)
		}
	}
	raw, code := runCLI(t, "watch", h.URL(), "--session", sid, tok, "--json", "--until-idle")
	for _, member := range []string{`"truncated":["text"]`, `"truncated":["output"]`} {
		if code != 0 || !strings.Contains(raw, member) {
			t.Fatalf("watch --json: exit %d, no %s", code, member)
		}
	}
}
