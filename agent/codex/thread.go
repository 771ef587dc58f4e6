package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// thread is one Lookout session's Codex thread and the app-server running
// it. Its dispatch goroutine is the only reader of the app-server's
// messages; it hands turn events to the active turn.
type thread struct {
	a    *Agent
	sess host.Session
	p    *process
	id   string // Codex thread id
	cwd  string // the thread's working directory

	turns bridge.TurnSlot[turnState] // the running turn; dead once the app-server has gone
}

func newThread(a *Agent, sess host.Session, p *process) *thread {
	th := &thread{a: a, sess: sess, p: p}
	go th.dispatch()
	return th
}

// threadInfo is the part of a thread/start or thread/resume answer the
// bridge reads.
type threadInfo struct {
	Thread struct {
		ID    string  `json:"id"`
		Name  *string `json:"name"`
		Cwd   string  `json:"cwd"`
		Model string  `json:"model"`
	} `json:"thread"`
	Model string `json:"model"`
}

// open resumes the session's Codex thread when it has one, else starts a
// new thread in cwd and records its id in the session.
func (th *thread) open(ctx context.Context, t *host.Turn, cwd string) error {
	if id := bridge.JSONString(th.sess.Value(stateThread)); id != "" {
		// Lookout holds the history already: leave the turns out of the answer.
		res, err := th.p.conn.call(ctx, "thread/resume", map[string]any{"threadId": id, "excludeTurns": true})
		if err == nil {
			return th.adopt(res, cwd)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The thread is gone (another CODEX_HOME, a deleted rollout): say
		// so, and carry on in a new thread rather than refuse every turn.
		bridge.ContextLost(t, "threadNotResumed",
			fmt.Sprintf("Codex could not resume thread %s (%v); this turn starts a new Codex thread without the earlier context", id, err))
	}
	res, err := th.p.conn.call(ctx, "thread/start", map[string]any{"cwd": cwd})
	if err != nil {
		return fmt.Errorf("codex thread/start: %w", err)
	}
	return th.adopt(res, cwd)
}

func (th *thread) adopt(res json.RawMessage, cwd string) error {
	var info threadInfo
	if err := json.Unmarshal(res, &info); err != nil || info.Thread.ID == "" {
		return fmt.Errorf("codex answered a thread request without a thread id: %s", child.Cut(string(res), 200))
	}
	th.id = info.Thread.ID
	values := map[string]any{}
	if bridge.JSONString(th.sess.Value(stateThread)) != th.id {
		values[stateThread] = th.id
	}
	if info.Thread.Cwd != "" {
		cwd = info.Thread.Cwd
	}
	th.cwd = cwd
	// Sessions made before the bridge offered commands learn them here.
	if err := th.sess.SetCommands(commands()); err != nil {
		return err
	}
	if bridge.JSONString(th.sess.Value(stateCwd)) != cwd {
		values[stateCwd] = cwd
	}
	m := info.Model
	if m == "" {
		m = info.Thread.Model
	}
	if m != "" && bridge.JSONString(th.sess.Value(stateModel)) != m {
		values[stateModel] = m
	}
	if info.Thread.Name != nil && *info.Thread.Name != "" && bridge.JSONString(th.sess.Value(stateTitle)) != *info.Thread.Name {
		values[stateTitle] = *info.Thread.Name
	}
	if len(values) == 0 {
		return nil
	}
	return th.sess.SetState(values)
}

// runTurn starts a Codex turn for t and waits for it to end
// (bridge.RunTurn). Cancelling ctx interrupts the Codex turn; if Codex
// does not end it within the grace period, the app-server is killed.
func (th *thread) runTurn(ctx context.Context, t *host.Turn) error {
	if t.AgentCommand() == "" {
		bridge.DefaultTitle(th.sess, t.Prompt())
	}
	ts := newTurnState(th, t, ctx)
	if !th.turns.Begin(ts) {
		return th.exitFailure()
	}
	defer func() {
		th.turns.End(ts)
		ts.cancelApprovals()
	}()
	return bridge.RunTurn(ctx, ts.outcome, codexTurn{ts}, bridge.TurnOptions{Grace: th.a.opts.InterruptGrace})
}

// codexTurn is a turn's bridge.TurnDriver: turn/start, turn/interrupt.
type codexTurn struct{ ts *turnState }

// Send starts the Codex turn; it is answered at once. An agent command
// is its own app-server call (commandCall), whose turn Codex announces
// with turn/started.
func (d codexTurn) Send() error {
	th, t := d.ts.th, d.ts.t
	sctx, cancel := context.WithTimeout(context.Background(), startupTimeout)
	defer cancel()
	if name := t.AgentCommand(); name != "" {
		method, params, err := commandCall(name, th.id)
		if err != nil {
			return err
		}
		_, err = th.p.conn.call(sctx, method, params)
		return err
	}
	res, err := th.p.conn.call(sctx, "turn/start", map[string]any{
		"threadId": th.id,
		"input":    []any{map[string]any{"type": "text", "text": t.Prompt(), "text_elements": []any{}}},
		// Codex echoes it as the userMessage's clientId: the turn's
		// identity on both sides.
		"clientUserMessageId": t.CommandID(),
	})
	if err != nil {
		return err
	}
	var started struct {
		Turn struct {
			ID string `json:"id"`
		} `json:"turn"`
	}
	_ = json.Unmarshal(res, &started)
	d.ts.setCodexTurn(started.Turn.ID)
	return nil
}

// Refused: Codex answered turn/start with an error (or died, which the
// outcome says already).
func (codexTurn) Refused(err error) (time.Duration, error) {
	return 0, &host.TurnFailure{Code: "agentError", Message: "Codex refused the turn: " + err.Error()}
}

func (d codexTurn) Interrupt(ctx context.Context) {
	if id := d.ts.codexTurn(); id != "" {
		_, _ = d.ts.th.p.conn.call(ctx, "turn/interrupt", map[string]any{"threadId": d.ts.th.id, "turnId": id})
	}
}

func (d codexTurn) Overdue() {
	th := d.ts.th
	th.a.log.Warn("codex did not end an interrupted turn in time; killing its app-server", "session", th.sess.ID())
	th.p.Kill()
}

// exitFailure is the turn failure of an app-server that went away.
func (th *thread) exitFailure() error {
	return &host.TurnFailure{Code: "agentExited", Message: "the Codex app-server stopped mid-turn: " + th.p.ExitReason()}
}

// dispatch reads the app-server's messages until its output ends, handing
// each to the active turn or handling it as thread-wide news.
func (th *thread) dispatch() {
	th.p.conn.Queue.Consume(th.handle)
	th.ended()
}

// ended marks the thread dead and fails the active turn.
func (th *thread) ended() {
	ts := th.turns.Die()
	th.a.threads.Forget(th.sess.ID(), th)
	if ts != nil {
		ts.finish(th.exitFailure())
	}
	// Reap the process (and any helpers left in its group).
	go th.p.Stop(time.Second)
}

// handle routes one message. Thread-wide news (usage, the thread's name)
// becomes session state at any time; the rest belongs to the active turn.
func (th *thread) handle(m *message) {
	ts := th.turns.Current()
	if m.Bad != nil {
		th.a.log.Warn("malformed codex output", "session", th.sess.ID(), "err", m.Bad, "line", m.Raw)
		if ts != nil {
			_ = ts.t.Warning(model.Warning{RequestKind: "agent", Code: "malformedAgentOutput",
				Message: fmt.Sprintf("Codex sent output Lookout could not read (%v): %s", m.Bad, m.Raw)})
		}
		return
	}
	switch m.Method {
	case "thread/tokenUsage/updated":
		th.usage(m.Params)
		return
	case "thread/name/updated":
		var p struct {
			ThreadName *string `json:"threadName"`
		}
		if json.Unmarshal(m.Params, &p) == nil && p.ThreadName != nil && *p.ThreadName != "" {
			_ = th.sess.SetState(map[string]any{stateTitle: *p.ThreadName})
		}
		return
	}
	if ts == nil {
		if len(m.ID) > 0 {
			// A question with no turn to ask it in: refuse it.
			_ = th.p.conn.reply(m.ID, map[string]any{"decision": "cancel"})
		}
		return
	}
	ts.handle(m)
}

// usage records token usage and the context window as session state.
func (th *thread) usage(params json.RawMessage) {
	var p struct {
		TokenUsage struct {
			Total              map[string]any `json:"total"`
			Last               map[string]any `json:"last"`
			ModelContextWindow *int64         `json:"modelContextWindow"`
		} `json:"tokenUsage"`
	}
	if json.Unmarshal(params, &p) != nil || p.TokenUsage.Total == nil {
		return
	}
	u := map[string]any{}
	for _, k := range []string{"inputTokens", "cachedInputTokens", "outputTokens", "reasoningOutputTokens", "totalTokens"} {
		if v, ok := p.TokenUsage.Total[k]; ok {
			u[k] = v
		}
	}
	if v, ok := p.TokenUsage.Last["totalTokens"]; ok {
		u["contextTokens"] = v // what the last request held: the context in use
	}
	if p.TokenUsage.ModelContextWindow != nil {
		u["contextWindow"] = *p.TokenUsage.ModelContextWindow
	}
	_ = th.sess.SetState(map[string]any{stateUsage: u})
}
