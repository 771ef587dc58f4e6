package codex_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/agent/agenttest"
	"github.com/lookout-sh/lookout/agent/codex"
	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// rig is a real Lookout host whose agent is the real Codex app-server,
// talking to a fake model on loopback, with a client subscribed to one
// session.
type rig struct {
	t     testing.TB
	bin   string
	fake  *codextest.FakeModel
	env   []string
	work  string
	data  string
	agent *codex.Agent
	h     *host.Host
	c     *hosttest.Client
	sid   string
	st    *model.State
}

type rigOptions struct {
	fake codextest.FakeOptions
	home codextest.HomeOptions
}

func newRig(t *testing.T, o rigOptions) *rig { return newRigTB(t, o) }

func newRigTB(t testing.TB, o rigOptions) *rig {
	t.Helper()
	r := &rig{t: t, bin: codextest.Binary(t), fake: codextest.NewFakeModel(t, o.fake), data: t.TempDir()}
	r.env = codextest.Home(t, r.fake.URL(), o.home)
	r.work = agenttest.Workdir(t)
	r.startHost()
	var out struct {
		SessionID string `json:"sessionId"`
	}
	r.c.MustCall(t, "session/create", map[string]any{}, &out)
	r.sid = out.SessionID
	r.subscribe()
	return r
}

// startHost starts (or restarts) the host on the rig's data directory.
func (r *rig) startHost() {
	r.agent = codex.New(codex.Options{Bin: r.bin, Env: r.env, Cwd: r.work, InterruptGrace: 5 * time.Second})
	r.h = hosttest.Start(r.t, host.Options{DataDir: r.data, Agent: "codex", AgentImpl: r.agent})
	r.c = hosttest.Dial(r.t, r.h)
}

// subscribe (re)subscribes the rig's client and folds the snapshot.
func (r *rig) subscribe() {
	r.t.Helper()
	sub, err := r.c.Subscribe(r.sid, "", "", 1000)
	if err != nil {
		r.t.Fatal(err)
	}
	r.st = model.NewState(r.sid)
	if _, err := r.st.LoadSnapshot(r.sid, sub.Epoch, *sub.Snapshot); err != nil {
		r.t.Fatal(err)
	}
}

// submit sends a prompt and returns its turn id.
func (r *rig) submit(text string) string {
	r.t.Helper()
	status, turn, err := r.c.Submit(r.sid, uuid.NewString(), text)
	if err != nil {
		r.t.Fatalf("submit %q: %v", text, err)
	}
	if status != "started" && status != "queued" {
		r.t.Fatalf("submit status %q", status)
	}
	return turn
}

// until folds events until match, failing the test on error.
func (r *rig) until(what string, match func(*model.Event) bool) (*model.Event, []*model.Event) {
	r.t.Helper()
	ev, seen, err := r.c.WaitEvent(r.st, match)
	if err != nil {
		r.t.Fatalf("waiting for %s: %v", what, err)
	}
	return ev, seen
}

// turn submits a prompt and folds until its turn ends; it returns the
// turn/completed event and every event seen.
func (r *rig) turn(text string) (*model.Event, []*model.Event) {
	r.t.Helper()
	id := r.submit(text)
	return r.until("the end of turn "+text, hosttest.TurnCompleted(id))
}

// items returns the folded items of a kind in the given turn ("" any).
func (r *rig) items(kind, turnID string) []*model.Item {
	var out []*model.Item
	for _, it := range r.st.Items() {
		if it.Kind == kind && (turnID == "" || it.TurnID == turnID) {
			out = append(out, it)
		}
	}
	return out
}

// one returns the single item of kind in the turn.
func (r *rig) one(kind, turnID string) *model.Item {
	r.t.Helper()
	its := r.items(kind, turnID)
	if len(its) != 1 {
		r.t.Fatalf("%d %s items in turn %s, want 1:\n%s", len(its), kind, turnID, r.st.Encode())
	}
	return its[0]
}

func (r *rig) stateString(name string) string {
	var s string
	json.Unmarshal(r.st.Value(name), &s)
	return s
}

func wantCompleted(t testing.TB, ev *model.Event) {
	t.Helper()
	if ev.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s (%+v), want completed", ev.Status, ev.TurnError)
	}
}

// isApproval matches approval/requested.
func isApproval(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested }

// respond answers an approval.
func (r *rig) respond(approvalID, decision string) {
	r.t.Helper()
	r.c.MustCall(r.t, "approval/respond", map[string]any{"sessionId": r.sid, "approvalId": approvalID, "decision": decision}, nil)
}

// promptsSent lists the prompts of the fake model's last turn request.
func (r *rig) lastTurnPrompts() []string {
	reqs := r.fake.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Kind == "" || reqs[i].Kind == "turn" {
			return reqs[i].Prompts()
		}
	}
	return nil
}

func containsAll(t testing.TB, what string, got []string, want ...string) {
	t.Helper()
	joined := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("%s lacks %q: %q", what, w, got)
		}
	}
}

var _ = fmt.Sprint
