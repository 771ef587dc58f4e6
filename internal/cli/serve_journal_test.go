package cli

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/natstest"
)

// serveOnce runs lookout serve with args until stop is called, and
// returns its URL and its token (from dir).
func serveOnce(t *testing.T, dir string, args ...string) (url, token string, stop func()) {
	t.Helper()
	cmd := newServeCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetErr(io.Discard)
	cmd.SetArgs(append([]string{"--addr", "127.0.0.1:0", "--data", dir, "--pace", "0"}, args...))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	lines := bufio.NewScanner(pr)
	for url == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "lookout host listening on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		cancel()
		t.Fatalf("serve printed no URL: %v", <-done)
	}
	tok, err := os.ReadFile(host.TokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	return url, strings.TrimSpace(string(tok)), func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve returned %v", err)
		}
	}
}

// A host serving with --journal keeps its sessions in JetStream: a host
// started later on another machine (another data directory) with the
// same --journal serves them, history included.
func TestServeJournalOutlivesTheMachine(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	list := func(url, token string) (ids []string) {
		c, _, err := hosttest.DialURL(url, http.Header{"Authorization": {"Bearer " + token}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var res struct{ Sessions []struct{ SessionID string } }
		c.MustCall(t, "session/list", map[string]any{}, &res)
		for _, s := range res.Sessions {
			ids = append(ids, s.SessionID)
		}
		return ids
	}
	url, tok, stop := serveOnce(t, t.TempDir(), "--journal", node.URL())
	first := list(url, tok)
	stop()
	if len(first) != 1 {
		t.Fatalf("the first host lists %v, want its demo session", first)
	}
	url, tok, stop = serveOnce(t, t.TempDir(), "--journal", node.URL())
	defer stop()
	if again := list(url, tok); len(again) != 1 || again[0] != first[0] {
		t.Fatalf("a host on another data directory lists %v, want %v", again, first)
	}
	c, _, err := hosttest.DialURL(url, http.Header{"Authorization": {"Bearer " + tok}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sub, err := c.Subscribe(first[0], "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Snapshot == nil || len(sub.Snapshot.Items) == 0 {
		t.Fatalf("the demo session's history is gone (delivery %s)", sub.Delivery)
	}
}

// Hosts started with the same --journal and no --fleet-host are members
// of one fleet, each with the id kept in its data directory: while the
// first runs, the second lists its session as the first's and serves it.
func TestServeJournalHostsFormAFleet(t *testing.T) {
	node := natstest.Start(t, t.TempDir())
	dirA, dirB := t.TempDir(), t.TempDir()
	urlA, tokA, stopA := serveOnce(t, dirA, "--journal", node.URL())
	defer stopA()
	urlB, tokB, stopB := serveOnce(t, dirB, "--journal", node.URL(), "--demo-session=false")
	defer stopB()
	idA, err := host.FleetHostID(dirA)
	if err != nil {
		t.Fatal(err)
	}
	if idB, _ := host.FleetHostID(dirB); idB == idA {
		t.Fatalf("two hosts share the fleet id %q", idA)
	}
	type entry struct{ SessionID, Host string }
	list := func(url, token string) []entry {
		c, _, err := hosttest.DialURL(url, http.Header{"Authorization": {"Bearer " + token}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var res struct{ Sessions []entry }
		c.MustCall(t, "session/list", map[string]any{}, &res)
		return res.Sessions
	}
	onA, onB := list(urlA, tokA), list(urlB, tokB)
	if len(onA) != 1 || len(onB) != 1 || onB[0] != onA[0] || onA[0].Host != idA {
		t.Fatalf("A lists %+v, B lists %+v; want A's demo session, run by %q, on both", onA, onB, idA)
	}
	c, _, err := hosttest.DialURL(urlB, http.Header{"Authorization": {"Bearer " + tokB}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sub, err := c.Subscribe(onA[0].SessionID, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Snapshot == nil || len(sub.Snapshot.Items) == 0 {
		t.Fatalf("B serves A's session without its history (delivery %s)", sub.Delivery)
	}
}
