package opencode_test

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/agent/opencode"
	"github.com/lookout-sh/lookout/agent/opencode/opencodetest"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// rig is a real Lookout host whose agent is the real OpenCode server,
// talking to a fake model on loopback, with a client subscribed to one
// session.
type rig struct {
	t     testing.TB
	bin   string
	fake  *opencodetest.FakeModel
	env   []string
	work  string
	data  string
	url   string // attach to this server instead of starting one
	agent *opencode.Agent
	h     *host.Host
	c     *hosttest.Client
	sid   string
	st    *model.State
}

type rigOptions struct {
	fake opencodetest.FakeOptions
	home opencodetest.HomeOptions
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	r := &rig{t: t, bin: opencodetest.Binary(t), fake: opencodetest.NewFakeModel(t, o.fake), data: t.TempDir()}
	r.env = opencodetest.Home(t, r.fake.URL(), o.home)
	r.work = opencodetest.Workdir(t)
	return r
}

// start starts the host and opens a session.
func (r *rig) start() *rig {
	r.startHost()
	r.createSession()
	return r
}

// startHost starts (or restarts) the host on the rig's data directory.
func (r *rig) startHost() {
	r.agent = opencode.New(opencode.Options{Bin: r.bin, URL: r.url, Env: r.env, Cwd: r.work, InterruptGrace: 5 * time.Second, Logger: testLogger(r.t)})
	r.h = hosttest.Start(r.t, host.Options{DataDir: r.data, Agent: "opencode", AgentImpl: r.agent})
	r.c = hosttest.Dial(r.t, r.h)
}

func (r *rig) createSession() {
	var out struct {
		SessionID string `json:"sessionId"`
	}
	r.c.MustCall(r.t, "session/create", map[string]any{}, &out)
	r.sid = out.SessionID
	r.subscribe()
}

// fork returns a rig on the same host and OpenCode server with a session
// and client of its own, for subtest t.
func (r *rig) fork(t *testing.T) *rig {
	f := *r
	f.t = t
	f.c = hosttest.Dial(t, r.h)
	f.createSession()
	return &f
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
	_ = json.Unmarshal(r.st.Value(name), &s) // not a string: ""
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

// isTextDelta matches a streamed piece of an answer.
func isTextDelta(ev *model.Event) bool {
	return ev.Method == model.MethodItemDelta && ev.Field == "text"
}

// respond answers an approval.
func (r *rig) respond(approvalID, decision string) {
	r.t.Helper()
	r.c.MustCall(r.t, "approval/respond", map[string]any{"sessionId": r.sid, "approvalId": approvalID, "decision": decision}, nil)
}

// lastTurnPrompts lists the user messages of the fake model's last turn
// request.
func (r *rig) lastTurnPrompts() []string {
	reqs := r.fake.TurnRequests()
	if len(reqs) == 0 {
		return nil
	}
	return reqs[len(reqs)-1].Prompts()
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

// noneOpen fails t for every item of the rig's session still open.
func (r *rig) noneOpen() {
	r.t.Helper()
	for _, it := range r.st.Items() {
		if it.IsOpen() {
			r.t.Errorf("item %s (%s) left open", it.ID, it.Kind)
		}
	}
}

// testLogger sends the bridge's diagnostics to the test's log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
