package opencode

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/model"
)

// askLocked puts one of OpenCode's permission requests to the user. The
// wait runs on its own goroutine, so the turn keeps folding meanwhile; the
// answer goes back as POST /permission/{id}/reply.
func (ts *turnState) askLocked(props json.RawMessage) error {
	var p permissionAsked
	if err := json.Unmarshal(props, &p); err != nil {
		return err
	}
	if p.ID == "" {
		return nil
	}
	var oi *openItem
	if p.Tool != nil {
		oi = ts.calls[p.Tool.CallID]
	}
	if oi == nil {
		// A permission about a tool not shown yet (OpenCode may ask before
		// it reports the tool running): show one to ask about.
		var err error
		if oi, err = ts.permissionItem(p); err != nil {
			go ts.s.reply(p.ID, "reject")
			return err
		}
	}
	switch oi.kind {
	case model.KindToolCall:
		if err := ts.advanceLocked(oi, model.StatusWaitingUser, nil); err != nil {
			go ts.s.reply(p.ID, "reject")
			return err
		}
	case model.KindFileChange:
		if d := p.metaString("diff"); d != "" {
			oi.permDiff = d
			var changes []any
			if oi.part != nil {
				changes = fileChanges(oi.part, d)
			} else {
				changes = permissionChanges(p)
			}
			if len(changes) > 0 {
				if err := ts.t.UpdateItem(oi.id, "", map[string]any{"changes": changes}); err != nil {
					return err
				}
				oi.changes = changes
			}
		}
	}
	if ts.s.allowed(p) {
		// Approved for the session before: answer as the user did then.
		go ts.s.reply(p.ID, "once")
		if oi.kind == model.KindToolCall {
			return ts.advanceLocked(oi, model.StatusRunning, nil)
		}
		return nil
	}
	opts := []model.Decision{model.DecisionApprove, model.DecisionDeny}
	if len(p.Always) > 0 {
		opts = []model.Decision{model.DecisionApprove, model.DecisionApproveForSession, model.DecisionDeny}
	}
	req := host.ApprovalRequest{ItemID: oi.id, Summary: approvalSummary(p), Options: opts}
	actx, cancel := context.WithCancel(ts.ctx)
	pp := &pendingPerm{cancel: cancel}
	ts.perms[p.ID] = pp
	go func() {
		defer cancel()
		ans, err := ts.t.Ask(actx, req)
		ts.mu.Lock()
		withdrawn := pp.withdrawn
		delete(ts.perms, p.ID)
		ts.mu.Unlock()
		if err != nil {
			if !withdrawn {
				// The turn ended or was interrupted: OpenCode keeps an
				// unanswered permission pending even after an abort.
				ts.s.reply(p.ID, "reject")
			}
			return
		}
		d := ans.Decision
		if d == model.DecisionApproveForSession {
			ts.s.allow(p)
		}
		ts.s.replyWith(p.ID, openCodeReply(d), ans.Reason)
		if d != model.DecisionDeny {
			ts.mu.Lock()
			if !ts.outcome.Finished() && ts.calls[callID(p)] == oi {
				_ = ts.advanceLocked(oi, model.StatusRunning, nil)
			}
			ts.mu.Unlock()
		}
	}()
	return nil
}

func callID(p permissionAsked) string {
	if p.Tool == nil {
		return ""
	}
	return p.Tool.CallID
}

// permissionItem opens the item a permission is about when its tool part
// has not shown: a fileChange for an edit, else a toolCall named after the
// permission with its metadata as input.
func (ts *turnState) permissionItem(p permissionAsked) (*openItem, error) {
	oi := &openItem{}
	var err error
	if p.Permission == "edit" {
		oi.kind, oi.status = model.KindFileChange, model.StatusInProgress
		oi.changes = permissionChanges(p)
		oi.permDiff = p.metaString("diff")
		oi.id, err = ts.t.StartItem(oi.kind, oi.status, map[string]any{"changes": oi.changes})
	} else {
		oi.kind, oi.status = model.KindToolCall, model.StatusReady
		input := map[string]any{}
		for k, v := range p.Metadata {
			var x any
			if json.Unmarshal(v, &x) == nil {
				input[k] = x
			}
		}
		b, _ := json.Marshal(input)
		oi.id, err = ts.t.StartItem(oi.kind, oi.status, map[string]any{"toolName": p.Permission, "input": input, "inputText": string(b)})
	}
	if err != nil {
		return nil, err
	}
	if id := callID(p); id != "" {
		ts.calls[id] = oi
	}
	return oi, nil
}

// permissionChanges are the changes an edit permission shows.
func permissionChanges(p permissionAsked) []any {
	path := p.metaString("filepath")
	if path == "" {
		return []any{}
	}
	diff := bridge.Hunks(p.metaString("diff"))
	kind := "update"
	if diff != "" {
		kind = bridge.DiffKind(diff)
	}
	return []any{map[string]any{"path": path, "kind": kind, "diff": diff}}
}

// replied folds permission.replied: an approval answered elsewhere (another
// OpenCode client) is withdrawn, and the host resolves it cancelled.
func (ts *turnState) replied(props json.RawMessage) {
	var p struct {
		RequestID string `json:"requestID"`
	}
	if json.Unmarshal(props, &p) != nil {
		return
	}
	if pp := ts.perms[p.RequestID]; pp != nil {
		pp.withdrawn = true
		pp.cancel()
	}
}

// rejectUnasked declines a permission or a question that arrives with no
// turn to ask it in, rather than leave OpenCode waiting.
func (ts *turnState) rejectUnasked(typ string, props json.RawMessage) {
	var p struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(props, &p) != nil || p.ID == "" {
		return
	}
	switch typ {
	case "permission.asked":
		go ts.s.reply(p.ID, "reject")
	case "question.asked":
		go ts.s.rejectQuestion(p.ID)
	}
}

// openCodeReply is a Lookout decision in OpenCode's words. Approving for
// the session is "once": OpenCode's "always" allows the like of it in every
// session of the server's project, so the bridge remembers the patterns
// for the Lookout session itself (session.allow).
func openCodeReply(d model.Decision) string {
	switch d {
	case model.DecisionApprove, model.DecisionApproveForSession:
		return "once"
	}
	return "reject"
}

// allow remembers, for the rest of the session (while the host runs), the
// patterns OpenCode offered to allow from now on with a request.
func (s *session) allow(p permissionAsked) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.allowedPatterns == nil {
		s.allowedPatterns = map[string][]string{}
	}
	s.allowedPatterns[p.Permission] = append(s.allowedPatterns[p.Permission], p.Always...)
}

// allowed reports whether every pattern of a request matches one the user
// approved for the session.
func (s *session) allowed(p permissionAsked) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	rules := s.allowedPatterns[p.Permission]
	if len(rules) == 0 || len(p.Patterns) == 0 {
		return false
	}
	for _, pat := range p.Patterns {
		if !slices.ContainsFunc(rules, func(r string) bool { return wildcardMatch(r, pat) }) {
			return false
		}
	}
	return true
}

// wildcardMatch matches s against an OpenCode permission pattern: "*" is
// any run of characters, "?" any one; "cmd *" also matches "cmd" alone.
func wildcardMatch(pattern, s string) bool {
	if strings.HasSuffix(pattern, " *") && s == strings.TrimSuffix(pattern, " *") {
		return true
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}
