package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
)

// session is one Lookout session's OpenCode session.
type session struct {
	a    *Agent
	sess host.Session

	mu     sync.Mutex
	ocID   string            // OpenCode session id
	dir    string            // its directory
	srv    *server           // the server the session was last opened on
	cmdsOn *server           // the server whose command list the session's state holds (commands.go)
	roles  map[string]string // message id -> role, of messages seen
	usage  *usage            // token counts; nil until first needed
	cost   float64           // OpenCode's reckoning, USD

	// OpenCode reports a failed or aborted turn idle before it has
	// finished with it (it completes the assistant message and goes idle
	// again later), and a prompt sent in between is stored but never run.
	// The session is settled once it went idle with every assistant
	// message complete; a prompt waits for that.
	settled  chan struct{}   // closed while settled
	inflight map[string]bool // assistant messages not complete yet

	allowedPatterns map[string][]string // approved for the session, by permission

	// turns holds the running turn. It never dies: the server, shared by
	// every session, is what goes away (server.alive).
	turns bridge.TurnSlot[turnState]
}

func newSession(a *Agent, sess host.Session) *session {
	s := &session{a: a, sess: sess, roles: map[string]string{}, inflight: map[string]bool{}, settled: make(chan struct{})}
	close(s.settled)
	return s
}

// settleLocked records OpenCode's progress: busy unsettles the session; an
// idle with every assistant message complete settles it.
func (s *session) settleLocked(busy bool) {
	select {
	case <-s.settled:
		if busy {
			s.settled = make(chan struct{})
		}
	default:
		if !busy && len(s.inflight) == 0 {
			close(s.settled)
		}
	}
}

// settleTimeout bounds the wait for a session to settle before a prompt.
const settleTimeout = 5 * time.Second

// waitSettled waits until the session is settled, ctx ends, or
// settleTimeout passes (the prompt is then sent anyway).
func (s *session) waitSettled(ctx context.Context) {
	s.mu.Lock()
	ch := s.settled
	s.mu.Unlock()
	t := time.NewTimer(settleTimeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-ctx.Done():
	case <-t.C:
		s.a.log.Warn("opencode session did not settle; prompting anyway", "session", s.sess.ID())
	}
}

func (s *session) directory() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir
}

func (s *session) openCodeID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ocID
}

func (s *session) role(messageID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roles[messageID]
}

// openOn reports whether the session has its OpenCode session on srv
// already.
func (s *session) openOn(srv *server) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv == srv && s.ocID != ""
}

// open makes sure the session has an OpenCode session on srv: the one its
// state names (checked once per server), else a new one in its directory.
func (s *session) open(ctx context.Context, t *host.Turn, srv *server) error {
	if s.openOn(srv) {
		return nil
	}
	dir := s.a.opts.Cwd
	if v := bridge.JSONString(s.sess.Value(stateCwd)); v != "" {
		dir = v
	}
	var info struct {
		ID        string `json:"id"`
		Directory string `json:"directory"`
		Title     string `json:"title"`
	}
	if id := bridge.JSONString(s.sess.Value(stateSession)); id != "" {
		err := srv.c.do(ctx, "GET", "/session/"+id, "", nil, &info)
		if err != nil && !isNotFound(err) {
			return fmt.Errorf("look up OpenCode session %s: %w", id, err)
		}
		if err != nil || info.ID == "" {
			// Gone (another HOME, a deleted database): say so, and carry on
			// in a new session rather than refuse every turn.
			bridge.ContextLost(t, "sessionNotResumed",
				fmt.Sprintf("OpenCode has no session %s (%v); this turn starts a new OpenCode session without the earlier context", id, err))
			info.ID = ""
		}
	}
	if info.ID == "" {
		if err := srv.c.do(ctx, "POST", "/session", dir, map[string]any{}, &info); err != nil {
			return fmt.Errorf("create an OpenCode session in %s: %w", dir, err)
		}
		if info.ID == "" {
			return fmt.Errorf("OpenCode created a session without an id")
		}
	}
	if info.Directory != "" {
		dir = info.Directory
	}
	s.mu.Lock()
	old := s.ocID
	s.ocID, s.dir, s.srv = info.ID, dir, srv
	s.inflight = map[string]bool{} // a new server knows of no turn in progress
	s.settleLocked(false)
	s.mu.Unlock()
	s.a.index(s, old, info.ID)
	values := map[string]any{}
	if bridge.JSONString(s.sess.Value(stateSession)) != info.ID {
		values[stateSession] = info.ID
	}
	if bridge.JSONString(s.sess.Value(stateCwd)) != dir {
		values[stateCwd] = dir
	}
	if !isDefaultTitle(info.Title) && bridge.JSONString(s.sess.Value(stateTitle)) != info.Title {
		values[stateTitle] = info.Title
	}
	if len(values) > 0 {
		return s.sess.SetState(values)
	}
	return nil
}

// handle routes one event of the session (the event goroutine of srv).
// Session-wide news (title, usage, model) becomes session state at any
// time; the rest belongs to the active turn.
func (s *session) handle(srv *server, ev event) {
	ts := s.turns.Current()
	if ts != nil && ts.srv != srv {
		ts = nil
	}
	fresh := false
	switch ev.Type {
	case "session.status", "session.idle":
		var p struct {
			Status struct {
				Type string `json:"type"`
			} `json:"status"`
		}
		_ = json.Unmarshal(ev.Properties, &p)
		s.mu.Lock()
		s.settleLocked(ev.Type == "session.status" && p.Status.Type != "idle")
		s.mu.Unlock()
	case "session.updated":
		s.sessionUpdated(ev.Properties)
		return
	case "message.updated":
		var p struct {
			Info messageInfo `json:"info"`
		}
		if json.Unmarshal(ev.Properties, &p) == nil && p.Info.ID != "" {
			s.mu.Lock()
			_, seen := s.roles[p.Info.ID]
			s.roles[p.Info.ID] = p.Info.Role
			if p.Info.Role == "assistant" {
				if p.Info.Time.Completed == nil && p.Info.Error == nil {
					s.inflight[p.Info.ID] = true
				} else {
					delete(s.inflight, p.Info.ID)
				}
			}
			s.mu.Unlock()
			fresh = !seen
			if p.Info.Role == "assistant" && p.Info.ModelID != "" {
				s.setIfChanged(stateModel, p.Info.ProviderID+"/"+p.Info.ModelID)
			}
		}
	case "permission.asked", "question.asked":
		if ts == nil {
			// A question with no turn to ask it in: refuse it.
			var p struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(ev.Properties, &p) == nil && p.ID != "" {
				if ev.Type == "permission.asked" {
					go s.reply(p.ID, "reject")
				} else {
					go s.rejectQuestion(p.ID)
				}
			}
			return
		}
	}
	if ts != nil {
		ts.handle(ev.Type, ev.Properties, fresh)
	}
}

// sessionUpdated takes OpenCode's title (once its title model named the
// session), token totals and cost.
func (s *session) sessionUpdated(props json.RawMessage) {
	var p struct {
		Info sessionInfo `json:"info"`
	}
	if json.Unmarshal(props, &p) != nil {
		return
	}
	if !isDefaultTitle(p.Info.Title) {
		s.setIfChanged(stateTitle, p.Info.Title)
	}
	t := p.Info.Tokens
	if t == nil || t.Input+t.Output+t.Reasoning+t.Cache.Read+t.Cache.Write == 0 {
		return // nothing counted yet: keep what the steps counted
	}
	s.mu.Lock()
	s.loadUsageLocked()
	s.usage.totals(*t)
	s.cost = p.Info.Cost
	u, cost := s.usage.value(), s.cost
	s.mu.Unlock()
	s.setUsage(u, cost)
}

// noteStep counts a finished step's tokens and cost (OpenCode's own
// totals, on session.updated, may come after the turn has ended), and
// records the size of its request as the context in use.
func (s *session) noteStep(t tokens, cost float64) {
	s.mu.Lock()
	s.loadUsageLocked()
	s.usage.add(t)
	s.cost += cost
	if srv := s.srv; srv != nil {
		if w := srv.contextWindow(bridge.JSONString(s.sess.Value(stateModel))); w > 0 {
			s.usage.Window = w
		}
	}
	u, c := s.usage.value(), s.cost
	s.mu.Unlock()
	s.setUsage(u, c)
}

// loadUsageLocked starts the counts from the session's state (a restarted
// host goes on counting).
func (s *session) loadUsageLocked() {
	if s.usage != nil {
		return
	}
	s.usage = &usage{}
	var m map[string]int64
	if json.Unmarshal(s.sess.Value(stateUsage), &m) == nil {
		s.usage.Input, s.usage.Cached, s.usage.Output = m["inputTokens"], m["cachedInputTokens"], m["outputTokens"]
		s.usage.Reasoning, s.usage.Context, s.usage.Window = m["reasoningOutputTokens"], m["contextTokens"], m["contextWindow"]
	}
	_ = json.Unmarshal(s.sess.Value(stateCost), &s.cost)
}

func (s *session) setUsage(u map[string]any, cost float64) {
	values := map[string]any{}
	if !equalJSON(json.RawMessage(s.sess.Value(stateUsage)), u) {
		values[stateUsage] = u
	}
	if !equalJSON(json.RawMessage(s.sess.Value(stateCost)), cost) {
		values[stateCost] = cost
	}
	if len(values) > 0 {
		_ = s.sess.SetState(values)
	}
}

func (s *session) setIfChanged(name, value string) {
	if bridge.JSONString(s.sess.Value(name)) != value {
		_ = s.sess.SetState(map[string]any{name: value})
	}
}

// reply answers a permission request (best effort: a reply that fails
// leaves OpenCode's own handling, an abort, to end the turn).
func (s *session) reply(permissionID, reply string) { s.replyWith(permissionID, reply, "") }

// replyWith answers a permission with a message when there is one:
// OpenCode hands a reject's message to the model as the user's feedback
// on the refused tool call (and goes on with the turn).
func (s *session) replyWith(permissionID, reply, message string) {
	body := map[string]any{"reply": reply}
	if message != "" {
		body["message"] = message
	}
	if err := s.post("/permission/"+permissionID+"/reply", body); err != nil {
		s.a.log.Warn("opencode permission reply failed", "session", s.sess.ID(), "permission", permissionID, "err", err)
	}
}

// replyQuestion answers a question OpenCode's question tool asks.
func (s *session) replyQuestion(questionID string, answers [][]string) {
	if err := s.post("/question/"+questionID+"/reply", map[string]any{"answers": answers}); err != nil {
		s.a.log.Warn("opencode question reply failed", "session", s.sess.ID(), "question", questionID, "err", err)
	}
}

// rejectQuestion declines a question OpenCode's question tool asks.
func (s *session) rejectQuestion(questionID string) {
	if err := s.post("/question/"+questionID+"/reject", nil); err != nil {
		s.a.log.Warn("opencode question reject failed", "session", s.sess.ID(), "question", questionID, "err", err)
	}
}

// post sends a POST in the session's directory on its server.
func (s *session) post(path string, body any) error {
	s.mu.Lock()
	srv, dir := s.srv, s.dir
	s.mu.Unlock()
	if srv == nil {
		return fmt.Errorf("no OpenCode server")
	}
	ctx, cancel := context.WithTimeout(srv.ctx, 10*time.Second)
	defer cancel()
	return srv.c.do(ctx, "POST", path, dir, body, nil)
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
