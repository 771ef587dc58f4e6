package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/adrg/xdg"
	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

func TestServeRunsAHostUntilCancelled(t *testing.T) {
	dir := t.TempDir()
	cmd := newServeCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetErr(io.Discard)
	cmd.SetArgs([]string{"--addr", "127.0.0.1:0", "--data", dir, "--pace", "0"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()

	lines := bufio.NewScanner(pr)
	url, demo := "", ""
	for (url == "" || demo == "") && lines.Scan() {
		l := lines.Text()
		if rest, ok := strings.CutPrefix(l, "lookout host listening on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
		if rest, ok := strings.CutPrefix(l, "demo session: "); ok {
			demo = rest
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" || demo == "" {
		t.Fatalf("serve printed no URL or demo session (url %q, demo %q)", url, demo)
	}
	tok, err := os.ReadFile(host.TokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	ws, _, err := websocket.DefaultDialer.Dial(url, http.Header{"Authorization": {"Bearer " + strings.TrimSpace(string(tok))}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"session/list"}`)); err != nil {
		t.Fatal(err)
	}
	_, data, err := ws.ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Result struct{ Sessions []struct{ SessionID string } }
	}
	if json.Unmarshal(data, &res) != nil || len(res.Result.Sessions) != 1 || res.Result.Sessions[0].SessionID != demo {
		t.Fatalf("session/list = %s", data)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if _, _, err := ws.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Fatalf("client saw %v at shutdown, want close 1001", err)
	}
}

func TestServeRefusesNoAuthOffLoopback(t *testing.T) {
	cmd := newServeCmd()
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetArgs([]string{"--addr", "0.0.0.0:0", "--no-auth", "--ephemeral"})
	err := cmd.ExecuteContext(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no-auth") {
		t.Fatalf("err = %v", err)
	}
}

func TestServeHelpListsTheDemoScenarios(t *testing.T) {
	help := newServeCmd().Long
	for _, s := range host.DemoScenarios {
		if !strings.Contains(help, s[0]) {
			t.Errorf("help lacks scenario %q", s[0])
		}
	}
}

// An ephemeral `lookout serve` without --data still keeps its token in the
// default data directory, where a client on the machine looks for it; it
// records no address there (only the durable host owning it does).
func TestServeEphemeralKeepsItsTokenInTheDefaultDataDir(t *testing.T) {
	state := t.TempDir()
	t.Cleanup(xdg.Reload) // runs after t.Setenv restores the environment
	t.Setenv("XDG_STATE_HOME", state)
	xdg.Reload()
	dir := host.DefaultDataDir()

	cmd := newServeCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetErr(io.Discard)
	cmd.SetArgs([]string{"--ephemeral", "--addr", "127.0.0.1:0", "--pace", "0"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve ended with %v", err)
		}
	}()

	lines := bufio.NewScanner(pr)
	url := ""
	for url == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "lookout host listening on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	tok, err := os.ReadFile(host.TokenPath(dir))
	if err != nil {
		t.Fatalf("no token file in %s: %v", dir, err)
	}
	ws, _, err := websocket.DefaultDialer.Dial(url, http.Header{"Authorization": {"Bearer " + string(tok)}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"t","version":"1"}}}`)); err != nil {
		t.Fatal(err)
	}
	_, data, err := ws.ReadMessage()
	if err != nil || !strings.Contains(string(data), `"durability":"ephemeral"`) {
		t.Fatalf("initialize: %s %v", data, err)
	}
	if _, err := os.Stat(host.AddressPath(dir)); !os.IsNotExist(err) {
		t.Fatalf("an ephemeral host recorded its address: %v", err)
	}
	if _, err := os.Stat(host.JournalPath(dir)); !os.IsNotExist(err) {
		t.Fatalf("an ephemeral host wrote a journal: %v", err)
	}
}

// serveOutput runs `lookout serve args...` until it prints its URL and
// returns the URL and what it wrote on stderr by then; the host stops when
// the test ends.
func serveOutput(t *testing.T, args ...string) (url, stderr string) {
	t.Helper()
	cmd := newServeCmd()
	pr, pw := io.Pipe()
	var errb strings.Builder
	cmd.SetOut(pw)
	cmd.SetErr(&errb)
	cmd.SetArgs(args)
	ctx, cancel := context.WithCancel(context.Background())
	var serveErr error
	ended := make(chan struct{})
	go func() { serveErr = cmd.ExecuteContext(ctx); pw.Close(); close(ended) }()
	t.Cleanup(func() {
		cancel()
		<-ended
		if serveErr != nil {
			t.Errorf("serve ended with %v", serveErr)
		}
	})
	lines := bufio.NewScanner(pr)
	for url == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "lookout host listening on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		cancel()
		<-ended
		t.Fatalf("serve printed no URL: %v", serveErr)
	}
	return url, errb.String() // written before the URL line
}

func TestServeTLSAndThePlaintextWarning(t *testing.T) {
	cert, key, _ := hosttest.SelfSignedCert(t)
	url, stderr := serveOutput(t, "--addr", "0.0.0.0:0", "--ephemeral", "--data", t.TempDir(), "--pace", "0")
	if !strings.HasPrefix(url, "ws://") || !strings.Contains(stderr, "warning: serving plain ws:// on 0.0.0.0:0") {
		t.Fatalf("plain non-loopback host: url %s, stderr %q", url, stderr)
	}
	url, stderr = serveOutput(t, "--addr", "0.0.0.0:0", "--ephemeral", "--data", t.TempDir(), "--tls-cert", cert, "--tls-key", key)
	if !strings.HasPrefix(url, "wss://") || strings.Contains(stderr, "warning") {
		t.Fatalf("TLS host: url %s, stderr %q", url, stderr)
	}
	_, stderr = serveOutput(t, "--addr", "127.0.0.1:0", "--ephemeral", "--data", t.TempDir())
	if strings.Contains(stderr, "warning") {
		t.Fatalf("loopback host warned: %q", stderr)
	}
}
