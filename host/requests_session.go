package host

import (
	"encoding/json"

	"github.com/lookout-sh/lookout/model"
)

// subscribe answers session/subscribe itself (see session.subscribe).
func (c *conn) subscribe(req *incoming) (any, *rpcError) {
	var p struct {
		sessionParams
		Cursor *string `json:"cursor"`
		Epoch  *string `json:"epoch"`
		Limit  *int    `json:"limit"`
	}
	s, e := c.decodeSession(req.params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	limit, e := limitParam(p.Limit)
	if e != nil {
		return nil, e
	}
	if e := s.subscribe(c, req.id, p.Cursor, p.Epoch, limit); e != nil {
		return nil, e
	}
	return answeredAlready, nil
}

func (c *conn) unsubscribe(params json.RawMessage) (any, *rpcError) {
	var p sessionParams
	s, e := c.decodeSession(params, &p, &p)
	if e != nil {
		return nil, e
	}
	s.unsubscribe(c)
	c.removeSub(s)
	return struct{}{}, nil
}

func (c *conn) page(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		Epoch     *string `json:"epoch"`
		Direction *string `json:"direction"`
		Cursor    *string `json:"cursor"`
		Limit     *int    `json:"limit"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	limit, e := limitParam(p.Limit)
	if e != nil {
		return nil, e
	}
	if p.Direction == nil || (*p.Direction != "after" && *p.Direction != "before") {
		return nil, errInvalidParams(`invalid params: direction must be "after" or "before"`)
	}
	if p.Epoch != nil && *p.Epoch != s.epoch {
		return nil, errStale(s.epoch, "stale cursor: the epoch is "+s.epoch)
	}
	var seq int64 = -1
	if p.Cursor != nil && *p.Cursor != "" {
		sid, n, ok := model.ParseCursor(*p.Cursor)
		if !ok || sid != s.id {
			return nil, errInvalidParams("invalid params: cursor is not a cursor of this session")
		}
		seq = n
	}
	if *p.Direction == "after" {
		return s.pageAfter(max(seq, 0), limit)
	}
	return s.pageBefore(seq, limit)
}

func (c *conn) submit(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		CommandID    *string `json:"commandId"`
		Text         *string `json:"text"`
		AgentCommand *string `json:"agentCommand"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	if p.CommandID == nil || *p.CommandID == "" || len(*p.CommandID) > 256 {
		return nil, errInvalidParams("invalid params: commandId must be a non-empty string of at most 256 bytes")
	}
	if p.Text == nil {
		return nil, errInvalidParams("invalid params: text is required")
	}
	agentCmd := ""
	if p.AgentCommand != nil {
		if !validCommandName(*p.AgentCommand) {
			return nil, errInvalidParams("invalid params: agentCommand must be a command name: letters, digits and -_:. , at most 64 bytes")
		}
		agentCmd = *p.AgentCommand
	}
	res, e := s.submit(*p.CommandID, *p.Text, agentCmd, false)
	if e != nil {
		return nil, e
	}
	return res, flushed(s)
}

func (c *conn) replay(params json.RawMessage) (any, *rpcError) {
	s, cid, e := c.decodeCommandRef(params)
	if e != nil {
		return nil, e
	}
	return s.replay(cid), nil
}

func (c *conn) unqueue(params json.RawMessage) (any, *rpcError) {
	s, cid, e := c.decodeCommandRef(params)
	if e != nil {
		return nil, e
	}
	return acked(s, s.unqueue(cid, "unqueued"))
}

// decodeCommandRef decodes the params of a request about one command of a
// session: {sessionId, commandId}.
func (c *conn) decodeCommandRef(params json.RawMessage) (*session, string, *rpcError) {
	var p struct {
		sessionParams
		CommandID *string `json:"commandId"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, "", e
	}
	cid, e := required(p.CommandID, "commandId")
	if e != nil {
		return nil, "", e
	}
	return s, cid, nil
}

func (c *conn) steer(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		CommandID *string `json:"commandId"`
		Text      *string `json:"text"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	if p.CommandID == nil || *p.CommandID == "" || len(*p.CommandID) > 256 {
		return nil, errInvalidParams("invalid params: commandId must be a non-empty string of at most 256 bytes")
	}
	if p.Text == nil {
		return nil, errInvalidParams("invalid params: text is required")
	}
	res, e := s.steer(*p.CommandID, *p.Text)
	if e != nil {
		return nil, e
	}
	return res, flushed(s)
}

func (c *conn) interrupt(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		TurnID *string `json:"turnId"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	tid, e := required(p.TurnID, "turnId")
	if e != nil {
		return nil, e
	}
	return acked(s, s.interrupt(tid))
}

func (c *conn) respond(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		ApprovalID *string         `json:"approvalId"`
		Decision   *model.Decision `json:"decision"`
		Reason     *string         `json:"reason"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	aid, e := required(p.ApprovalID, "approvalId")
	if e != nil {
		return nil, e
	}
	if p.Decision == nil || !p.Decision.IsAnswer() {
		return nil, errInvalidParams(`invalid params: decision must be "approve", "deny" or "approveForSession"`)
	}
	ans := Answer{Decision: *p.Decision}
	if p.Reason != nil {
		ans.Reason = *p.Reason
	}
	if e := checkReason(ans); e != nil {
		return nil, e
	}
	return acked(s, s.respond(aid, ans))
}

func (c *conn) answerQuestion(params json.RawMessage) (any, *rpcError) {
	var p struct {
		sessionParams
		QuestionID *string `json:"questionId"`
		Answer     *struct {
			Selected []string `json:"selected"`
			Text     string   `json:"text"`
		} `json:"answer"`
	}
	s, e := c.decodeSession(params, &p, &p.sessionParams)
	if e != nil {
		return nil, e
	}
	qid, e := required(p.QuestionID, "questionId")
	if e != nil {
		return nil, e
	}
	if p.Answer == nil {
		return nil, errInvalidParams("invalid params: answer is required")
	}
	return acked(s, s.answerQuestion(qid, model.QuestionAnswer{Selected: p.Answer.Selected, Text: p.Answer.Text}))
}
