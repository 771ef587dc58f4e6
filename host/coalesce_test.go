package host_test

import (
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// initializeWith sends initialize with the given capabilities and returns
// what the host says it will do about coalesced deltas.
func initializeWith(t *testing.T, c *hosttest.Client, caps map[string]bool) bool {
	t.Helper()
	var init struct {
		Features struct {
			CoalesceDeltas bool `json:"coalesceDeltas"`
		} `json:"features"`
	}
	c.MustCall(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "t", "version": "1"}, "capabilities": caps}, &init)
	return init.Features.CoalesceDeltas
}

// streamed is what a client read of one turn: its delta frames, the text
// they carry for the agent's message, and whether their seqs only grew.
type streamed struct {
	frames int
	text   string
	rising bool
}

func readTurn(t *testing.T, c *hosttest.Client, st *model.State, turnID string) streamed {
	t.Helper()
	_, seen, err := c.WaitEvent(st, hosttest.TurnCompleted(turnID))
	if err != nil {
		t.Fatal(err)
	}
	answer := ""
	for _, ev := range seen {
		if ev.Item != nil && ev.Item.Kind == "agentMessage" {
			answer = ev.Item.ID
		}
	}
	s := streamed{rising: true}
	var last int64
	var text strings.Builder
	for _, ev := range seen {
		if ev.Method != model.MethodItemDelta {
			continue
		}
		s.frames++
		if ev.Seq <= last {
			s.rising = false
		}
		last = ev.Seq
		if ev.ItemID == answer && ev.Field == "text" {
			text.WriteString(ev.Delta)
		}
	}
	s.text = text.String()
	return s
}

// Two clients watch one turn streamed as fast as the host emits: the one
// that takes coalesced deltas reads the same answer in fewer frames, with
// seqs that still only grow; the other gets a frame per delta.
func TestCoalescedDeltasCarryTheSameText(t *testing.T) {
	h := hosttest.Start(t, host.Options{})
	plain, joined := hosttest.Dial(t, h), hosttest.Dial(t, h)
	if initializeWith(t, plain, map[string]bool{"deltas": true}) {
		t.Fatal("the host coalesces deltas for a client that did not ask")
	}
	if !initializeWith(t, joined, map[string]bool{"deltas": true, "coalesceDeltas": true}) {
		t.Fatal("the host does not say it coalesces deltas for a client that asked")
	}
	sid, _, plainState := newSession(t, plain)
	joinedState, _ := snapshotState(t, joined, sid)
	_, turnID, err := plain.Submit(sid, "cmd-1", "hello there")
	if err != nil {
		t.Fatal(err)
	}
	p := readTurn(t, plain, plainState, turnID)
	j := readTurn(t, joined, joinedState, turnID)
	if p.text == "" || j.text != p.text {
		t.Fatalf("coalesced deltas carry %q, plain ones %q", j.text, p.text)
	}
	if !p.rising || !j.rising {
		t.Fatalf("seqs rising: plain %v, coalesced %v", p.rising, j.rising)
	}
	if j.frames >= p.frames {
		t.Fatalf("coalesced client read %d delta frames, plain client %d", j.frames, p.frames)
	}
	var final string
	for _, it := range joinedState.Items() {
		if it.Kind == "agentMessage" {
			final = it.String("text")
		}
	}
	if final != j.text {
		t.Fatalf("final answer %q, streamed %q", final, j.text)
	}
	t.Logf("delta frames: plain %d, coalesced %d", p.frames, j.frames)
}
