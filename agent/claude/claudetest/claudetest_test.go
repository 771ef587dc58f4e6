package claudetest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/claude/claudetest"
)

// The smoke test runs the real Claude Code against the fake model, one
// scenario after another in one claude process, the way the bridge drives
// it: stream-json on stdin and stdout, permission prompts on stdio.

type claude struct {
	t     *testing.T
	stdin io.WriteCloser
	lines chan map[string]any
}

func startClaude(t *testing.T, env []string, dir string, args ...string) *claude {
	t.Helper()
	args = append([]string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--include-partial-messages", "--permission-prompt-tool", "stdio"}, args...)
	cmd, _ := agenttest.Command(t, claudetest.Binary(t), env, dir, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &claude{t: t, stdin: stdin, lines: make(chan map[string]any, 1000)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				c.lines <- m
			}
		}
		_ = cmd.Wait() // how it ended: the test's own assertions say
	}()
	c.send(map[string]any{"type": "control_request", "request_id": "init", "request": map[string]any{"subtype": "initialize"}})
	c.until(func(m map[string]any) bool { return m["type"] == "control_response" })
	return c
}

func (c *claude) send(m map[string]any) {
	b, _ := json.Marshal(m)
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
}

// until reads messages until match, answering permission prompts with
// allow, and returns every message read.
func (c *claude) until(match func(map[string]any) bool) []map[string]any {
	c.t.Helper()
	var seen []map[string]any
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("claude exited; read %d messages", len(seen))
			}
			seen = append(seen, m)
			if m["type"] == "control_request" {
				req := m["request"].(map[string]any)
				c.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success",
					"request_id": m["request_id"], "response": map[string]any{"behavior": "allow", "updatedInput": req["input"]}}})
			}
			if match(m) {
				return seen
			}
		case <-timeout:
			c.t.Fatalf("timed out; read %d messages", len(seen))
		}
	}
}

// turn sends a prompt and reads until its result.
func (c *claude) turn(prompt string) (map[string]any, []map[string]any) {
	c.t.Helper()
	c.send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}, "parent_tool_use_id": nil, "session_id": ""})
	seen := c.until(func(m map[string]any) bool { return m["type"] == "result" })
	return seen[len(seen)-1], seen
}

func textDeltas(seen []map[string]any) (string, int) {
	var b strings.Builder
	n := 0
	for _, m := range seen {
		if m["type"] != "stream_event" {
			continue
		}
		ev := m["event"].(map[string]any)
		if d, ok := ev["delta"].(map[string]any); ok && d["type"] == "text_delta" {
			b.WriteString(d["text"].(string))
			n++
		}
	}
	return b.String(), n
}

func count(seen []map[string]any, typ, subtype string) int {
	n := 0
	for _, m := range seen {
		if m["type"] == typ && (subtype == "" || m["subtype"] == subtype || m["request"] != nil && m["request"].(map[string]any)["subtype"] == subtype) {
			n++
		}
	}
	return n
}

func TestSmoke(t *testing.T) {
	start := time.Now()
	fake := claudetest.NewFakeModel(t, claudetest.FakeOptions{})
	env := claudetest.Home(t, fake.URL(), claudetest.HomeOptions{})
	dir := agenttest.Workdir(t)
	c := startClaude(t, env, dir)
	t.Logf("claude started in %v", time.Since(start))
	step := agenttest.Steps(t)
	step("plain", func(t *testing.T) {
		res, seen := c.turn("hello there")
		if res["subtype"] != "success" || res["is_error"] != false {
			t.Fatalf("result %v", res)
		}
		if text, n := textDeltas(seen); text != claudetest.PlainAnswer || n < 3 {
			t.Errorf("answer (%d deltas) %q", n, text)
		}
	})
	step("run", func(t *testing.T) {
		res, seen := c.turn("run: echo smoke-output > out.txt; cat out.txt")
		if res["is_error"] != false || count(seen, "control_request", "can_use_tool") != 1 {
			t.Fatalf("result %v, %d permission prompts", res, count(seen, "control_request", "can_use_tool"))
		}
		if r, _ := res["result"].(string); !strings.HasPrefix(r, claudetest.CommandAnswerPrefix) || !strings.Contains(r, "smoke-output") {
			t.Errorf("answer %q", r)
		}
	})
	step("edit", func(t *testing.T) {
		path := filepath.Join(dir, "notes.txt")
		if res, _ := c.turn("write: " + path); res["is_error"] != false {
			t.Fatalf("write: %v", res)
		}
		res, _ := c.turn("edit: " + path)
		if r, _ := res["result"].(string); !strings.HasPrefix(r, claudetest.EditAnswerPrefix) {
			t.Errorf("answer %q", r)
		}
		if b, _ := os.ReadFile(path); string(b) != strings.Replace(claudetest.WriteContent, claudetest.EditOld, claudetest.EditNew, 1) {
			t.Errorf("file holds %q", b)
		}
	})
	step("retry", func(t *testing.T) {
		res, seen := c.turn("retry please")
		if res["is_error"] != false || count(seen, "system", "api_retry") != 1 {
			t.Errorf("result %v after %d retries", res["result"], count(seen, "system", "api_retry"))
		}
	})
	step("model error", func(t *testing.T) {
		res, _ := c.turn("model error please")
		if res["is_error"] != true || !strings.Contains(res["result"].(string), claudetest.BadRequestMessage) {
			t.Errorf("result %v", res)
		}
	})
	step("context", func(t *testing.T) {
		c.turn("say: the word is pumpkin")
		c.turn("say: which word")
		reqs := fake.Requests()
		last := reqs[len(reqs)-1]
		if p := strings.Join(last.Prompts(), "|"); !strings.Contains(p, "the word is pumpkin") || last.LastPrompt() != "say: which word" {
			t.Errorf("prompts of the last request: %q", p)
		}
	})
}
