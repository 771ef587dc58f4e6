package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// gateAgent holds its turns open until the test says: a prompt starting
// with "A" streams its answer and ends with what the test sends on
// releaseA; any other prompt streams and runs until the host stops it.
type gateAgent struct {
	releaseA   chan error
	aStreaming chan struct{}
	bStreaming chan struct{}
	once       sync.Once
}

func newGateAgent() *gateAgent {
	return &gateAgent{releaseA: make(chan error, 1), aStreaming: make(chan struct{}), bStreaming: make(chan struct{})}
}

func (g *gateAgent) Launch(string) error { return nil }

func (g *gateAgent) Run(ctx context.Context, t *host.Turn) error {
	id, err := t.StartItem(model.KindAgentMessage, model.StatusInProgress, map[string]any{"text": ""})
	if err != nil {
		return err
	}
	if !strings.HasPrefix(t.Prompt(), "A") {
		if err := t.Delta(id, "text", "B is streaming"); err != nil {
			return err
		}
		close(g.bStreaming)
		<-ctx.Done()
		return ctx.Err()
	}
	if err := t.Delta(id, "text", "the answer to A"); err != nil {
		return err
	}
	g.once.Do(func() { close(g.aStreaming) })
	select {
	case res := <-g.releaseA:
		return res
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Item 9 of the hardening issue: `lookout send` exited 1 ("final status
// unknown") when its turn ended while the client was disconnected and the
// resubscribe was answered with a snapshot (another, queued turn was
// streaming), since a snapshot keeps no turn outcomes. A fault proxy cuts
// the connection right before the turn's turn/completed and refuses
// reconnects until the queued turn streams; send must then learn the
// outcome from the host (command/replay's turnStatus): 0 for a completed
// turn, 6 for a failed one, never 1.
func TestSendKnowsTheOutcomeAfterASnapshotResync(t *testing.T) {
	for _, c := range []struct {
		name   string
		result error
		code   int
	}{
		{"completed", nil, exitOK},
		{"failed", &host.TurnFailure{Code: "modelError", Message: "the model refused"}, exitTurnFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGateAgent()
			h, err := host.Start(context.Background(), host.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), AgentImpl: g, Agent: "gate"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			sid := dialSessions(t, h.URL(), h.Token())
			p := hosttest.NewProxy(t, h.Addr(), 1)

			type ran struct {
				out  string
				code int
			}
			done := make(chan ran, 1)
			go func() {
				out, code := runCLI(t, "send", p.URL(), "--session", sid, "--token", h.Token(), "A: answer me")
				done <- ran{out, code}
			}()
			select {
			case <-g.aStreaming:
			case r := <-done:
				t.Fatalf("send ended before its turn streamed: exit %d", r.code)
			case <-time.After(60 * time.Second):
				t.Fatal("the turn never streamed")
			}
			// Another client queues a turn behind A.
			other := hosttest.Dial(t, h)
			if st, _, err := other.Submit(sid, "cmd-b", "B: keep streaming"); err != nil || st != "queued" {
				t.Fatalf("submit B: %s %v", st, err)
			}
			// Cut send's connection right before A's turn/completed, and
			// keep it out until B streams.
			p.Drop(func(payload []byte) bool {
				if !bytes.Contains(payload, []byte(`"method":"turn/completed"`)) {
					return false
				}
				p.Refuse(true)
				p.KillAll()
				return true
			})
			g.releaseA <- c.result
			deadline := time.Now().Add(60 * time.Second)
			for p.Dropped() == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the proxy never saw A's turn/completed")
				}
				time.Sleep(5 * time.Millisecond)
			}
			select {
			case <-g.bStreaming:
			case <-time.After(60 * time.Second):
				t.Fatal("B never streamed")
			}
			p.Drop(nil)
			p.Refuse(false)

			var r ran
			select {
			case r = <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("send did not end")
			}
			if p.Dropped() != 1 {
				t.Fatalf("the proxy dropped %d turn/completed frames, want 1: the scenario did not happen", p.Dropped())
			}
			if r.code != c.code {
				t.Fatalf("send exited %d, want %d (1 is \"final status unknown\")", r.code, c.code)
			}
			if !strings.Contains(r.out, "the answer to A") {
				t.Fatalf("send printed %q, want the turn's answer", r.out)
			}
		})
	}
}
