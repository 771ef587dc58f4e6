package codextest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
)

// waitLimit bounds every wait for Codex (a safety net, not a timing
// assertion).
const waitLimit = 20 * time.Second

// msg is one JSON-RPC message from Codex (no "jsonrpc" member).
type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`

	raw []byte
}

func (m msg) isServerRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// param decodes the params into a map for quick assertions.
func (m msg) param() map[string]any {
	var p map[string]any
	_ = json.Unmarshal(m.Params, &p)
	return p
}

// appServer is `codex app-server` on stdio with a minimal client: a reader
// goroutine queues every line; the test consumes them in order.
type appServer struct {
	t      *testing.T
	in     io.WriteCloser
	wmu    sync.Mutex
	nextID int
	stderr *lockedBuffer
	start  time.Time
	dump   *os.File // CODEXTEST_TRANSCRIPTS: every line sent and received

	mu     sync.Mutex
	queue  []msg
	eof    bool
	signal chan struct{}
	waited chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startAppServer starts codex app-server in dir with env and initializes
// it. name labels the transcript dump.
func startAppServer(t *testing.T, name string, env []string, dir string) *appServer {
	t.Helper()
	cmd, _ := agenttest.Command(t, codextest.Binary(t), env, dir, "app-server")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	a := &appServer{t: t, in: in, stderr: &lockedBuffer{}, start: time.Now(), signal: make(chan struct{}, 1), waited: make(chan struct{})}
	cmd.Stderr = a.stderr
	if d := os.Getenv("CODEXTEST_TRANSCRIPTS"); d != "" {
		f, err := os.OpenFile(filepath.Join(d, name+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		a.dump = f
		t.Cleanup(func() { f.Close() })
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start codex app-server: %v", err)
	}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				a.record("recv", line)
				var m msg
				if jerr := json.Unmarshal(line, &m); jerr != nil {
					m = msg{Method: "<unparsed>"}
				}
				m.raw = bytes.TrimSpace(line)
				a.mu.Lock()
				a.queue = append(a.queue, m)
				a.mu.Unlock()
				a.wake()
			}
			if err != nil {
				break
			}
		}
		_ = cmd.Wait()
		a.mu.Lock()
		a.eof = true
		a.mu.Unlock()
		a.wake()
		close(a.waited)
	}()
	t.Cleanup(func() {
		_ = in.Close()
		select {
		case <-a.waited:
		case <-time.After(3 * time.Second):
			t.Logf("codex app-server did not exit on stdin EOF; killing it")
		}
		if t.Failed() {
			t.Logf("codex stderr:\n%s", a.stderr.String())
		}
	})
	a.call("initialize", map[string]any{
		"clientInfo":   map[string]any{"name": "lookout_codextest", "title": "codextest", "version": "0.0.1"},
		"capabilities": map[string]any{},
	})
	a.send(map[string]any{"method": "initialized"})
	return a
}

func (a *appServer) wake() {
	select {
	case a.signal <- struct{}{}:
	default:
	}
}

func (a *appServer) record(dir string, line []byte) {
	if a.dump == nil {
		return
	}
	fmt.Fprintf(a.dump, "{\"t\":%.3f,\"dir\":%q,\"msg\":%s}\n", time.Since(a.start).Seconds(), dir, bytes.TrimSpace(line))
}

func (a *appServer) send(v any) {
	a.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		a.t.Fatal(err)
	}
	a.wmu.Lock()
	defer a.wmu.Unlock()
	a.record("send", b)
	if _, err := a.in.Write(append(b, '\n')); err != nil {
		a.t.Fatalf("write to codex: %v", err)
	}
}

// request sends a request and returns its id.
func (a *appServer) request(method string, params any) string {
	a.wmu.Lock()
	id := a.nextID
	a.nextID++
	a.wmu.Unlock()
	a.send(map[string]any{"id": id, "method": method, "params": params})
	return strconv.Itoa(id)
}

// answer replies to a server request.
func (a *appServer) answer(req msg, result any) {
	a.send(map[string]any{"id": req.ID, "result": result})
}

// next pops the next message; ok is false on EOF.
func (a *appServer) next(deadline time.Time) (msg, bool) {
	a.t.Helper()
	for {
		a.mu.Lock()
		if len(a.queue) > 0 {
			m := a.queue[0]
			a.queue = a.queue[1:]
			a.mu.Unlock()
			return m, true
		}
		eof := a.eof
		a.mu.Unlock()
		if eof {
			return msg{}, false
		}
		select {
		case <-a.signal:
		case <-time.After(time.Until(deadline)):
			a.t.Fatalf("timed out after %v waiting for codex", waitLimit)
		}
	}
}

// until collects messages up to and including the first that satisfies
// stop. onRequest, when not nil, answers server requests as they come.
func (a *appServer) until(stop func(msg) bool, onRequest func(msg) any) []msg {
	a.t.Helper()
	deadline := time.Now().Add(waitLimit)
	var got []msg
	for {
		m, ok := a.next(deadline)
		if !ok {
			a.t.Fatalf("codex closed stdout; stderr:\n%s", a.stderr.String())
		}
		got = append(got, m)
		if m.isServerRequest() && onRequest != nil {
			a.answer(m, onRequest(m))
		}
		if stop(m) {
			return got
		}
	}
}

// call sends a request and waits for its answer; a JSON-RPC error fails
// the test. It returns the result and the messages that came before it.
func (a *appServer) call(method string, params any) (json.RawMessage, []msg) {
	a.t.Helper()
	res, errv, before := a.tryCall(method, params)
	if errv != nil {
		a.t.Fatalf("%s: error %s", method, errv)
	}
	return res, before
}

// tryCall is call that returns a JSON-RPC error instead of failing.
func (a *appServer) tryCall(method string, params any) (result, rpcErr json.RawMessage, before []msg) {
	a.t.Helper()
	id := a.request(method, params)
	got := a.until(func(m msg) bool { return m.Method == "" && string(m.ID) == id }, nil)
	last := got[len(got)-1]
	return last.Result, last.Error, got[:len(got)-1]
}

// startThread starts a thread in cwd and returns its id.
func (a *appServer) startThread(cwd string) string {
	a.t.Helper()
	res, _ := a.call("thread/start", map[string]any{"cwd": cwd})
	var r struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.Thread.ID == "" {
		a.t.Fatalf("thread/start answer %s: %v", res, err)
	}
	return r.Thread.ID
}

// startTurn sends turn/start for text (extra params merged in) and
// returns the request id.
func (a *appServer) startTurn(threadID, text string, extra map[string]any) string {
	p := map[string]any{"threadId": threadID,
		"input": []any{map[string]any{"type": "text", "text": text, "text_elements": []any{}}}}
	for k, v := range extra {
		p[k] = v
	}
	return a.request("turn/start", p)
}

// turn runs one turn to turn/completed and returns every message of it
// (the turn/start answer included). onRequest answers approvals.
func (a *appServer) turn(threadID, text string, extra map[string]any, onRequest func(msg) any) []msg {
	a.t.Helper()
	a.startTurn(threadID, text, extra)
	return a.until(func(m msg) bool { return m.Method == "turn/completed" }, onRequest)
}

// decide answers every approval request with decision.
func decide(decision string) func(msg) any {
	return func(msg) any { return map[string]any{"decision": decision} }
}

// ---- assertions over a turn's messages ----

// byMethod lists the messages with method.
func byMethod(ms []msg, method string) []msg {
	var out []msg
	for _, m := range ms {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// one returns the only message with method, failing otherwise.
func one(t *testing.T, ms []msg, method string) msg {
	t.Helper()
	got := byMethod(ms, method)
	if len(got) != 1 {
		t.Fatalf("want exactly one %s, got %d in:\n%s", method, len(got), dumpMethods(ms))
	}
	return got[0]
}

// items lists the item/started or item/completed params' items of type kind.
func items(ms []msg, method, kind string) []map[string]any {
	var out []map[string]any
	for _, m := range byMethod(ms, method) {
		it, _ := m.param()["item"].(map[string]any)
		if it["type"] == kind {
			out = append(out, it)
		}
	}
	return out
}

// oneItem is the only item of kind completed in ms.
func oneItem(t *testing.T, ms []msg, kind string) map[string]any {
	t.Helper()
	got := items(ms, "item/completed", kind)
	if len(got) != 1 {
		t.Fatalf("want one completed %s item, got %d in:\n%s", kind, len(got), dumpMethods(ms))
	}
	return got[0]
}

// deltas joins the "delta" params of method's notifications.
func deltas(ms []msg, method string) (string, int) {
	var b strings.Builder
	n := 0
	for _, m := range byMethod(ms, method) {
		d, _ := m.param()["delta"].(string)
		b.WriteString(d)
		n++
	}
	return b.String(), n
}

// turnStatus is turn/completed's turn.status and turn.error.
func turnStatus(t *testing.T, ms []msg) (string, map[string]any) {
	t.Helper()
	c := one(t, ms, "turn/completed")
	turn, _ := c.param()["turn"].(map[string]any)
	status, _ := turn["status"].(string)
	e, _ := turn["error"].(map[string]any)
	return status, e
}

func dumpMethods(ms []msg) string {
	var b strings.Builder
	for _, m := range ms {
		s := string(m.raw)
		if len(s) > 300 {
			s = s[:300] + "..."
		}
		b.WriteString("  " + s + "\n")
	}
	return b.String()
}
