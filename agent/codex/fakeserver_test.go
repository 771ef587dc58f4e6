package codex_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/internal/leakcheck"
	"github.com/lookout-sh/lookout/model"
)

// fakeServerEnv makes this test binary act as a scripted app-server (see
// TestMain), for what the real Codex cannot be made to do on purpose:
// malformed output and questions Lookout cannot ask.
const fakeServerEnv = "FAKE_CODEX_APP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeServerEnv) != "" {
		scriptedAppServer(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	leakcheck.Main(m)
}

// scriptedAppServer answers initialize and thread/start, and plays one
// turn full of bad output: a line that is not JSON, an unknown
// notification, a delta for an item never started, a request Lookout does
// not know whose answer decides the rest of the text, and a question
// asking for a secret.
func scriptedAppServer(in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(s string) { fmt.Fprintln(out, s) }
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		id := string(m.ID)
		switch m.Method {
		case "initialize":
			send(`{"id":` + id + `,"result":{}}`)
		case "thread/start":
			send(`{"id":` + id + `,"result":{"thread":{"id":"th-1","cwd":"/work","model":"scripted"}}}`)
		case "turn/start":
			send(`{"id":` + id + `,"result":{"turn":{"id":"tu-1"}}}`)
			send(`{"method":"turn/started","params":{"turn":{"id":"tu-1"}}}`)
			send(`this is not json`)
			send(`{"method":"some/unknownThing","params":{}}`)
			send(`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"m1","text":""}}}`)
			send(`{"method":"item/agentMessage/delta","params":{"itemId":"m1","delta":"hello"}}`)
			send(`{"method":"item/agentMessage/delta","params":{"itemId":"nope","delta":"lost"}}`)
			send(`{"id":78,"method":"item/tool/requestUserInput","params":{"itemId":"c1","questions":[{"id":"k","header":"Key","question":"Your API key?","isOther":true,"isSecret":true}]}}`)
			send(`{"id":77,"method":"item/tool/someFutureRequest","params":{}}`)
		case "":
			if id == "77" {
				rest := " WRONG"
				if len(m.Error) > 0 {
					rest = " world"
				}
				send(`{"method":"item/agentMessage/delta","params":{"itemId":"m1","delta":"` + rest + `"}}`)
				send(`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"m1","text":"hello` + rest + `"}}}`)
				send(`{"method":"turn/completed","params":{"turn":{"id":"tu-1","status":"completed","error":null}}}`)
			}
		}
	}
}

func TestMalformedOutputIsAWarningNotAWedge(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := agenttest.NewRig(t, "codex", func() host.Agent {
		return codex.New(codex.Options{Bin: self, Env: append(os.Environ(), fakeServerEnv+"=1"), Cwd: t.TempDir()})
	})
	done, seen := r.Turn("go")
	if done.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s %+v", done.Status, done.TurnError)
	}
	var codes []string
	for _, ev := range seen {
		if ev.Method == model.MethodWarning {
			codes = append(codes, ev.Warning.Code+": "+ev.Warning.Message)
		}
	}
	joined := strings.Join(codes, "\n")
	for _, want := range []string{"malformedAgentOutput: Codex sent output Lookout could not read", "this is not json",
		"which Codex never started", "unsupportedRequest: Codex asked something Lookout cannot answer yet (item/tool/someFutureRequest)",
		"badQuestion: Codex asked questions Lookout could not put to you (question 1: it asks for a secret"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	var answer *model.Item
	for _, it := range r.State.Items() {
		if it.Kind == model.KindAgentMessage {
			answer = it
		}
	}
	if answer == nil || answer.Text() != "hello world" || answer.Status != model.StatusCompleted {
		t.Fatalf("answer = %+v, want \"hello world\" completed (the question declined with an error)", answer)
	}
}
