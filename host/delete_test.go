package host_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// endingAgent is the demo agent that records which sessions it was told
// are gone, and runs "hang" turns until they are stopped.
type endingAgent struct {
	host.DemoAgent
	mu      *sync.Mutex
	ended   *[]string
	running chan string
}

func (a endingAgent) Run(ctx context.Context, t *host.Turn) error {
	if t.Prompt() == "hang" {
		a.running <- t.ID()
		<-ctx.Done()
		return ctx.Err()
	}
	return a.DemoAgent.Run(ctx, t)
}

func (a endingAgent) EndSession(sid string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	*a.ended = append(*a.ended, sid)
}

func (a endingAgent) endedSessions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(*a.ended)
}

func listedIDs(t *testing.T, c *hosttest.Client) []string {
	t.Helper()
	var res struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
		} `json:"sessions"`
	}
	c.MustCall(t, "session/list", map[string]any{}, &res)
	var ids []string
	for _, s := range res.Sessions {
		ids = append(ids, s.SessionID)
	}
	return ids
}

// session/delete forgets a session for good: the list lacks it, requests
// naming it get -32004, a restarted host has no trace of it, and the
// agent was told to let go of it. Its neighbour is untouched.
func TestDeleteSessionForgetsItAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	agent := endingAgent{mu: &sync.Mutex{}, ended: &[]string{}, running: make(chan string, 1)}
	h := hosttest.Start(t, host.Options{DataDir: dir, AgentImpl: agent})
	c := hosttest.Dial(t, h)
	sid, _, st := newSession(t, c)
	keep, _, keepSt := newSession(t, c)
	runTurn(t, c, sid, st, "c1", "hello")
	runTurn(t, c, keep, keepSt, "k1", "hello")

	if journalRefusesDelete(t, c, sid) {
		return
	}
	other := hosttest.Dial(t, h) // a second client watching the session
	if _, err := other.Subscribe(sid, "", "", 0); err != nil {
		t.Fatal(err)
	}
	c.MustCall(t, "session/delete", map[string]any{"sessionId": sid}, nil)
	if ids := listedIDs(t, c); slices.Contains(ids, sid) || !slices.Contains(ids, keep) {
		t.Fatalf("after delete the list is %v", ids)
	}
	if e := rpcCode(t, c, "session/subscribe", map[string]any{"sessionId": sid}); e == nil || e.Code != model.CodeUnknownSession {
		t.Fatalf("subscribe to a deleted session: %+v", e)
	}
	if e := rpcCode(t, c, "turn/submit", map[string]any{"sessionId": sid, "commandId": "c2", "text": "again"}); e == nil || e.Code != model.CodeUnknownSession {
		t.Fatalf("submit to a deleted session: %+v", e)
	}
	if e := rpcCode(t, c, "session/delete", map[string]any{"sessionId": sid}); e == nil || e.Code != model.CodeUnknownSession {
		t.Fatalf("deleting it again: %+v", e)
	}
	if e := rpcCode(t, c, "session/delete", map[string]any{}); e == nil || e.Code != model.CodeInvalidParams {
		t.Fatalf("delete without a sessionId: %+v", e)
	}
	select {
	case <-other.Done(): // its subscriber was closed, to resubscribe and learn
	case <-time.After(hosttest.Timeout):
		t.Fatal("the deleted session's subscriber was left open")
	}
	if got := agent.endedSessions(); !slices.Equal(got, []string{sid}) {
		t.Fatalf("the agent was told of %v", got)
	}

	h.Close()
	h2 := hosttest.Start(t, host.Options{DataDir: dir, AgentImpl: agent})
	c2 := hosttest.Dial(t, h2)
	if ids := listedIDs(t, c2); slices.Contains(ids, sid) || !slices.Contains(ids, keep) {
		t.Fatalf("after a restart the list is %v", ids)
	}
	if e := rpcCode(t, c2, "session/subscribe", map[string]any{"sessionId": sid}); e == nil || e.Code != model.CodeUnknownSession {
		t.Fatalf("subscribe after a restart: %+v", e)
	}
	if e := rpcCode(t, c2, "view/page", map[string]any{"sessionId": sid, "direction": "after"}); e == nil || e.Code != model.CodeUnknownSession {
		t.Fatalf("a page of it after a restart: %+v", e)
	}
	snap, _ := snapshotState(t, c2, keep)
	if len(snap.Items()) == 0 {
		t.Fatal("the other session lost its history")
	}

	// A session a restart left unloaded (quiet) deletes the same way.
	h2.Close()
	h3 := hosttest.Start(t, host.Options{DataDir: dir, AgentImpl: agent})
	c3 := hosttest.Dial(t, h3)
	c3.MustCall(t, "session/delete", map[string]any{"sessionId": keep}, nil)
	h3.Close()
	h4 := hosttest.Start(t, host.Options{DataDir: dir, AgentImpl: agent})
	if ids := listedIDs(t, hosttest.Dial(t, h4)); len(ids) != 0 {
		t.Fatalf("after deleting both the list is %v", ids)
	}
}

// Deleting a session whose turn is running stops the turn first, then
// tells the agent, and the delete answers only once it is all over.
func TestDeleteSessionStopsItsRunningTurn(t *testing.T) {
	for _, ephemeral := range []bool{false, true} {
		agent := endingAgent{mu: &sync.Mutex{}, ended: &[]string{}, running: make(chan string, 1)}
		h := hosttest.Start(t, host.Options{Ephemeral: ephemeral, AgentImpl: agent})
		c := hosttest.Dial(t, h)
		sid, _, _ := newSession(t, c)
		if _, _, err := c.Submit(sid, "h1", "hang"); err != nil {
			t.Fatal(err)
		}
		<-agent.running
		if _, _, err := c.Submit(sid, "h2", "queued behind it"); err != nil {
			t.Fatal(err)
		}
		if !ephemeral && journalRefusesDelete(t, c, sid) {
			continue
		}
		c.MustCall(t, "session/delete", map[string]any{"sessionId": sid}, nil)
		if got := agent.endedSessions(); !slices.Equal(got, []string{sid}) {
			t.Fatalf("ephemeral %v: the agent was told of %v", ephemeral, got)
		}
		if ids := listedIDs(t, c); slices.Contains(ids, sid) {
			t.Fatalf("ephemeral %v: the list still has it", ephemeral)
		}
	}
}

// journalRefusesDelete: under LOOKOUT_TEST_JOURNAL=jetstream a durable
// host journals in JetStream, which does not delete sessions yet. There
// the delete must be a typed refusal that leaves the session as it was;
// it reports true once it has checked that.
func journalRefusesDelete(t *testing.T, c *hosttest.Client, sid string) bool {
	t.Helper()
	if os.Getenv("LOOKOUT_TEST_JOURNAL") != "jetstream" {
		return false
	}
	rerr := rpcCode(t, c, "session/delete", map[string]any{"sessionId": sid})
	if rerr == nil || rerr.Code != model.CodeRejected || !strings.Contains(string(rerr.Data), `"deleteUnsupported"`) {
		t.Fatalf("a JetStream host answered session/delete with %+v, want -32010 deleteUnsupported", rerr)
	}
	if ids := listedIDs(t, c); !slices.Contains(ids, sid) {
		t.Fatalf("the refused delete lost the session: the list is %v", ids)
	}
	return true
}
