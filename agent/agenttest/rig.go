package agenttest

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// Rig is the stage of a bridge's tests: a real Lookout host running the
// bridge, with a client subscribed to one session that folds everything
// it receives. A bridge's rig embeds it and adds the agent's own parts
// (the fake model, the agent's environment). Tests assert on State, the
// client's fold, as a user's terminal would show it.
type Rig struct {
	// T is the test the rig belongs to; its methods fail it.
	T testing.TB
	// Data is the host's data directory, kept across StartHost.
	Data string
	// Host is the running host and Client the rig's client of it; both
	// are replaced by StartHost.
	Host   *host.Host
	Client *hosttest.Client
	// SessionID is the session the rig created; State the client's fold
	// of it, replaced by Subscribe.
	SessionID string
	State     *model.State

	// What the contract suite (RunContract) asks of the agent behind the
	// rig, set by the bridge's rig: Work is the agent's working
	// directory; PID the pid of the agent process serving a session now
	// (0: none); LastPrompts the user prompts of the fake model's newest
	// turn request. Bridge is the bridge's own rig (embedding this one),
	// for its Subject.Checks.
	Work        string
	PID         func(sessionID string) int
	LastPrompts func() []string
	Bridge      any

	agent    string
	newAgent func() host.Agent
}

// NewRig starts a host whose agent is named agent ("codex") and made by
// newAgent (called again by every StartHost, so a restarted host runs a
// new bridge), creates a session and subscribes to it.
func NewRig(t testing.TB, agent string, newAgent func() host.Agent) *Rig {
	t.Helper()
	r := &Rig{T: t, Data: t.TempDir(), agent: agent, newAgent: newAgent}
	r.StartHost()
	r.createSession()
	return r
}

// Fork returns a rig on the same host (the same bridge and the agent
// processes it runs) with a client and a session of its own, for t (a
// subtest): scenarios that do not stop what they run on share one agent.
func (r *Rig) Fork(t testing.TB) *Rig {
	t.Helper()
	f := *r
	f.T = t
	f.Client = hosttest.Dial(t, r.Host)
	f.createSession()
	return &f
}

func (r *Rig) createSession() {
	r.T.Helper()
	var out struct {
		SessionID string `json:"sessionId"`
	}
	r.Client.MustCall(r.T, "session/create", map[string]any{}, &out)
	r.SessionID = out.SessionID
	r.Subscribe()
}

// StartHost starts (or, after Host.Close, restarts) the host on the rig's
// data directory with a new bridge, and dials it. Subscribe again after.
func (r *Rig) StartHost() {
	r.T.Helper()
	r.Host = hosttest.Start(r.T, host.Options{DataDir: r.Data, Agent: r.agent, AgentImpl: r.newAgent()})
	r.Client = hosttest.Dial(r.T, r.Host)
}

// Subscribe (re)subscribes the rig's client and folds the snapshot into a
// new State.
func (r *Rig) Subscribe() {
	r.T.Helper()
	r.Client, r.State = r.subscribe(r.Client)
}

// AnotherClient dials the host again and subscribes the new client to the
// session, returning it and its own fold of the snapshot.
func (r *Rig) AnotherClient() (*hosttest.Client, *model.State) {
	r.T.Helper()
	return r.subscribe(hosttest.Dial(r.T, r.Host))
}

func (r *Rig) subscribe(c *hosttest.Client) (*hosttest.Client, *model.State) {
	r.T.Helper()
	sub, err := c.Subscribe(r.SessionID, "", "", 1000)
	if err != nil {
		r.T.Fatal(err)
	}
	st := model.NewState(r.SessionID)
	if _, err := st.LoadSnapshot(r.SessionID, sub.Epoch, *sub.Snapshot); err != nil {
		r.T.Fatal(err)
	}
	return c, st
}

// Submit sends a prompt and returns its turn id.
func (r *Rig) Submit(text string) string {
	r.T.Helper()
	status, turn, err := r.Client.Submit(r.SessionID, uuid.NewString(), text)
	if err != nil {
		r.T.Fatalf("submit %q: %v", text, err)
	}
	if status != "started" && status != "queued" {
		r.T.Fatalf("submit status %q", status)
	}
	return turn
}

// SubmitCommand sends a turn that runs the agent command name (text is
// the line the user typed) and returns its turn id.
func (r *Rig) SubmitCommand(text, name string) string {
	r.T.Helper()
	var res struct {
		Status string `json:"status"`
		TurnID string `json:"turnId"`
	}
	r.Client.MustCall(r.T, "turn/submit", map[string]any{"sessionId": r.SessionID, "commandId": uuid.NewString(),
		"text": text, "agentCommand": name}, &res)
	if res.Status != "started" && res.Status != "queued" {
		r.T.Fatalf("submit %q: status %q", text, res.Status)
	}
	return res.TurnID
}

// Command runs the agent command name as SubmitCommand does and folds
// until its turn ends, as Turn.
func (r *Rig) Command(text, name string) (*model.Event, []*model.Event) {
	r.T.Helper()
	id := r.SubmitCommand(text, name)
	return r.Until("the end of command "+text, hosttest.TurnCompleted(id))
}

// Until folds events into State until match, failing the test on error;
// it returns the matching event and every event seen.
func (r *Rig) Until(what string, match func(*model.Event) bool) (*model.Event, []*model.Event) {
	r.T.Helper()
	ev, seen, err := r.Client.WaitEvent(r.State, match)
	if err != nil {
		r.T.Fatalf("waiting for %s: %v", what, err)
	}
	return ev, seen
}

// Turn submits a prompt and folds until its turn ends; it returns the
// turn/completed event and every event seen.
func (r *Rig) Turn(text string) (*model.Event, []*model.Event) {
	r.T.Helper()
	id := r.Submit(text)
	return r.Until("the end of turn "+text, hosttest.TurnCompleted(id))
}

// Interrupt asks the host to interrupt the turn.
func (r *Rig) Interrupt(turnID string) {
	r.T.Helper()
	r.Client.MustCall(r.T, "turn/interrupt", map[string]any{"sessionId": r.SessionID, "turnId": turnID}, nil)
}

// Respond answers an approval with decision.
func (r *Rig) Respond(approvalID string, decision model.Decision) {
	r.T.Helper()
	r.Client.MustCall(r.T, "approval/respond", map[string]any{"sessionId": r.SessionID, "approvalId": approvalID, "decision": decision}, nil)
}

// Deny denies an approval, telling the agent reason (what to do instead).
func (r *Rig) Deny(approvalID, reason string) {
	r.T.Helper()
	r.Client.MustCall(r.T, "approval/respond", map[string]any{"sessionId": r.SessionID, "approvalId": approvalID,
		"decision": model.DecisionDeny, "reason": reason}, nil)
}

// Answer answers a question item with the labels picked and free text.
func (r *Rig) Answer(questionID string, selected []string, text string) {
	r.T.Helper()
	r.Client.MustCall(r.T, "question/respond", map[string]any{"sessionId": r.SessionID, "questionId": questionID,
		"answer": map[string]any{"selected": selected, "text": text}}, nil)
}

// IsQuestion matches a question item opening.
func IsQuestion(ev *model.Event) bool {
	return ev.Method == model.MethodItemStarted && ev.Item != nil && ev.Item.Kind == model.KindQuestion
}

// Items returns the folded items of a kind in the turn ("" any turn), in
// order.
func (r *Rig) Items(kind, turnID string) []*model.Item {
	var out []*model.Item
	for _, it := range r.State.Items() {
		if it.Kind == kind && (turnID == "" || it.TurnID == turnID) {
			out = append(out, it)
		}
	}
	return out
}

// One returns the single item of kind in the turn, failing the test when
// there is not exactly one.
func (r *Rig) One(kind, turnID string) *model.Item {
	r.T.Helper()
	its := r.Items(kind, turnID)
	if len(its) != 1 {
		r.T.Fatalf("%d %s items in turn %s, want 1:\n%s", len(its), kind, turnID, r.State.Encode())
	}
	return its[0]
}

// Last returns the last item of kind in the turn, failing the test when
// there is none.
func (r *Rig) Last(kind, turnID string) *model.Item {
	r.T.Helper()
	its := r.Items(kind, turnID)
	if len(its) == 0 {
		r.T.Fatalf("no %s item in turn %s:\n%s", kind, turnID, r.State.Encode())
	}
	return its[len(its)-1]
}

// NoneOpen fails the test for every item of the session still open (after
// a turn ended, however it ended).
func (r *Rig) NoneOpen() {
	r.T.Helper()
	for _, it := range r.State.Items() {
		if it.IsOpen() {
			r.T.Errorf("item %s (%s) left open", it.ID, it.Kind)
		}
	}
}

// StateString is the session state value name as a string ("" when it is
// not one).
func (r *Rig) StateString(name string) string {
	var s string
	_ = json.Unmarshal(r.State.Value(name), &s)
	return s
}

// WantCompleted fails t unless the turn/completed event says completed.
func WantCompleted(t testing.TB, ev *model.Event) {
	t.Helper()
	if ev.Status != model.StatusCompleted {
		t.Fatalf("turn ended %s (%+v), want completed", ev.Status, ev.TurnError)
	}
}

// IsApproval matches approval/requested.
func IsApproval(ev *model.Event) bool { return ev.Method == model.MethodApprovalRequested }

// IsTextDelta matches a delta of an item's text: an answer streaming.
func IsTextDelta(ev *model.Event) bool {
	return ev.Method == model.MethodItemDelta && ev.Field == "text"
}

// ContainsAll reports to t each of want that no string of got contains
// (what names got in the message).
func ContainsAll(t testing.TB, what string, got []string, want ...string) {
	t.Helper()
	joined := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("%s lacks %q: %q", what, w, got)
		}
	}
}

// Gone waits up to within for process pid to be gone (an agent's child
// after its host closed or died), and reports whether it went.
func Gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
