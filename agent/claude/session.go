package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// session is one Lookout session's Claude Code process. Its dispatch
// goroutine is the only reader of Claude Code's messages; it hands turn
// events to the active turn.
type session struct {
	a    *Agent
	sess host.Session
	p    *process

	turns bridge.TurnSlot[turnState] // the running turn; dead once Claude Code has gone

	mu            sync.Mutex
	contextTokens int64 // the newest model request's context (input and output)

	// base is what the session's earlier Claude Code processes used: a
	// process's results count only its own use (a resumed one starts
	// again from nothing), and the session's totals outlive each process.
	base usageBase
}

func newSession(a *Agent, sess host.Session, p *process) *session {
	s := &session{a: a, sess: sess, p: p, base: usageBaseOf(sess.Value(stateUsage), sess.Value(stateCost))}
	go s.dispatch()
	return s
}

// runTurn sends t's prompt as a user message and waits for Claude Code's
// result (bridge.RunTurn). Cancelling ctx sends Claude Code's interrupt;
// if the turn does not end within the grace period, Claude Code is
// killed.
func (s *session) runTurn(ctx context.Context, t *host.Turn) error {
	if t.AgentCommand() == "" {
		bridge.DefaultTitle(s.sess, t.Prompt())
	}
	ts := newTurnState(s, t, ctx)
	if !s.turns.Begin(ts) {
		return s.exitFailure()
	}
	defer func() {
		s.turns.End(ts)
		ts.cancelApprovals()
	}()
	return bridge.RunTurn(ctx, ts.outcome, claudeTurn{ts}, bridge.TurnOptions{Grace: s.a.opts.InterruptGrace})
}

// claudeTurn is a turn's bridge.TurnDriver: a user message, the interrupt
// control request.
type claudeTurn struct{ ts *turnState }

// Send writes the prompt as a user message; an agent command is the
// slash-command line Claude Code runs itself (commandLine).
func (d claudeTurn) Send() error {
	t := d.ts.t
	if name := t.AgentCommand(); name != "" {
		return d.ts.s.p.conn.sendUser(commandLine(name, t.Prompt()))
	}
	return d.ts.s.p.conn.sendUser(t.Prompt())
}

// Refused: the prompt could not be written, so Claude Code is going away;
// its death, reported within a second, says why.
func (claudeTurn) Refused(err error) (time.Duration, error) {
	return time.Second, &host.TurnFailure{Code: "agentExited", Message: "Lookout could not send the prompt to Claude Code: " + err.Error()}
}

func (d claudeTurn) Interrupt(ctx context.Context) {
	go func() {
		// Answered at once; the turn's result follows, or the kill.
		_, _ = d.ts.s.p.conn.request(ctx, "interrupt", nil)
	}()
}

func (d claudeTurn) Overdue() {
	s := d.ts.s
	s.a.log.Warn("claude code did not end an interrupted turn in time; killing it", "session", s.sess.ID())
	s.p.Kill()
}

// exitFailure is the turn failure of a Claude Code that went away.
func (s *session) exitFailure() error {
	return &host.TurnFailure{Code: "agentExited", Message: "Claude Code stopped mid-turn: " + s.p.ExitReason()}
}

// dispatch reads Claude Code's messages until its output ends.
func (s *session) dispatch() {
	s.p.conn.Queue.Consume(s.handle)
	s.ended()
}

// ended marks the session's process dead and fails the active turn.
func (s *session) ended() {
	ts := s.turns.Die()
	s.a.sessions.Forget(s.sess.ID(), s)
	if ts != nil {
		ts.finish(s.exitFailure())
	}
	// Reap the process (and any helpers left in its group).
	go s.p.Stop(time.Second)
}

// handle routes one message. What describes the session (its id, model,
// cwd, usage, cost) becomes session state at any time; the rest belongs
// to the active turn.
func (s *session) handle(m *message) {
	ts := s.turns.Current()
	if m.Bad != nil {
		s.a.log.Warn("malformed claude code output", "session", s.sess.ID(), "err", m.Bad, "line", string(m.Raw))
		if ts != nil {
			_ = ts.t.Warning(model.Warning{RequestKind: "agent", Code: "malformedAgentOutput",
				Message: fmt.Sprintf("Claude Code sent output Lookout could not read (%v): %s", m.Bad, m.Raw)})
		}
		return
	}
	switch {
	case m.Type == "system" && m.Subtype == "init":
		s.init(m)
		return
	case m.Type == "result":
		s.usage(m)
	case m.Type == "control_request" && ts == nil:
		// A question with no turn to ask it in: refuse it.
		s.refuse(m)
		return
	}
	if ts != nil {
		ts.handle(m)
	}
}

// refuse answers a control request no turn can take.
func (s *session) refuse(m *message) {
	var req struct {
		Subtype string `json:"subtype"`
	}
	_ = json.Unmarshal(m.Request, &req)
	if req.Subtype == "can_use_tool" {
		_ = s.p.conn.respond(m.RequestID, map[string]any{"behavior": "deny", "message": "No Lookout turn is running."})
		return
	}
	_ = s.p.conn.respondError(m.RequestID, "Lookout cannot answer "+req.Subtype)
}

// init records what Claude Code's init message says about the session:
// its id (resumed with it later), model and working directory.
func (s *session) init(m *message) {
	var p struct {
		SessionID     string   `json:"session_id"`
		Model         string   `json:"model"`
		Cwd           string   `json:"cwd"`
		SlashCommands []string `json:"slash_commands"`
	}
	if json.Unmarshal(m.Raw, &p) != nil {
		return
	}
	if s.p.commands == nil && len(p.SlashCommands) > 0 {
		_ = s.sess.SetCommands(initCommands(p.SlashCommands))
	}
	values := map[string]any{}
	if p.SessionID != "" && bridge.JSONString(s.sess.Value(stateSession)) != p.SessionID {
		values[stateSession] = p.SessionID
	}
	if p.Model != "" && bridge.JSONString(s.sess.Value(stateModel)) != p.Model {
		values[stateModel] = p.Model
	}
	if p.Cwd != "" && bridge.JSONString(s.sess.Value(stateCwd)) != p.Cwd {
		values[stateCwd] = p.Cwd
	}
	if len(values) > 0 {
		_ = s.sess.SetState(values)
	}
}

// setModel records the model a response came from when it changed (a
// fallback model, a /model switch).
func (s *session) setModel(name string) {
	if name != "" && name != syntheticModel && bridge.JSONString(s.sess.Value(stateModel)) != name {
		_ = s.sess.SetState(map[string]any{stateModel: name})
	}
}

func (s *session) setContextTokens(n int64) {
	s.mu.Lock()
	s.contextTokens = n
	s.mu.Unlock()
}

// modelUsage is one model's totals in a result's modelUsage: the whole
// session's, resumed sessions included.
type modelUsage struct {
	InputTokens              int64   `json:"inputTokens"`
	OutputTokens             int64   `json:"outputTokens"`
	CacheReadInputTokens     int64   `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64   `json:"cacheCreationInputTokens"`
	ThinkingTokens           int64   `json:"thinkingTokens"`
	ContextWindow            int64   `json:"contextWindow"`
	CostUSD                  float64 `json:"costUSD"`
}

// usage records a result's token totals and cost as session state: the
// process's own (its result counts what this process used) on top of
// what the session's earlier processes used.
func (s *session) usage(m *message) {
	var r struct {
		TotalCostUSD *float64              `json:"total_cost_usd"`
		ModelUsage   map[string]modelUsage `json:"modelUsage"`
	}
	if json.Unmarshal(m.Raw, &r) != nil || len(r.ModelUsage) == 0 {
		return
	}
	model := bridge.JSONString(s.sess.Value(stateModel))
	var in, cached, out, thinking, window int64
	for name, mu := range r.ModelUsage {
		in += mu.InputTokens + mu.CacheReadInputTokens + mu.CacheCreationInputTokens
		cached += mu.CacheReadInputTokens
		out += mu.OutputTokens
		thinking += mu.ThinkingTokens
		if name == model || window == 0 {
			window = mu.ContextWindow
		}
	}
	b := s.base
	in, cached, out, thinking = in+b.input, cached+b.cached, out+b.output, thinking+b.reasoning
	u := map[string]any{"inputTokens": in, "cachedInputTokens": cached, "outputTokens": out,
		"reasoningOutputTokens": thinking, "totalTokens": in + out}
	s.mu.Lock()
	if s.contextTokens > 0 {
		u["contextTokens"] = s.contextTokens
	}
	s.mu.Unlock()
	if window > 0 {
		u["contextWindow"] = window
	}
	values := map[string]any{stateUsage: u}
	if r.TotalCostUSD != nil {
		values[stateCost] = *r.TotalCostUSD + b.cost
	}
	_ = s.sess.SetState(values)
}

// usageBase is a session's totals as its state held them when a Claude
// Code process started.
type usageBase struct {
	input, cached, output, reasoning int64
	cost                             float64
}

func usageBaseOf(usage, cost json.RawMessage) usageBase {
	var u struct {
		InputTokens           int64 `json:"inputTokens"`
		CachedInputTokens     int64 `json:"cachedInputTokens"`
		OutputTokens          int64 `json:"outputTokens"`
		ReasoningOutputTokens int64 `json:"reasoningOutputTokens"`
	}
	var b usageBase
	if usage != nil && json.Unmarshal(usage, &u) == nil {
		b = usageBase{input: u.InputTokens, cached: u.CachedInputTokens, output: u.OutputTokens, reasoning: u.ReasoningOutputTokens}
	}
	if cost != nil {
		_ = json.Unmarshal(cost, &b.cost)
	}
	return b
}
