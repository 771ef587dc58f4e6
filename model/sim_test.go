package model

import (
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// sim is a small host simulator for tests: it emits a well-formed event
// stream (wire frames) for one session, choosing what happens with rapid.
type sim struct {
	sid         string
	seq         int64
	lastDurable int64
	frames      []string
	items       map[string]*simItem
	open        []string
	nItems      int
	nTurns      int
	queued      []string
	active      string
	approvals   []string
	// committed records, for every completed item, the field values its
	// deltas built just before completion, to check the delta contract.
	committed map[string]map[string]string
}

type simItem struct {
	id, kind, turn string
	rev, pos       int64
	fields         map[string]any
}

func newSim(sid string) *sim {
	return &sim{sid: sid, items: map[string]*simItem{}, committed: map[string]map[string]string{}}
}

func (s *sim) emit(method string, durable bool, params map[string]any) {
	s.seq++
	params["sessionId"] = s.sid
	params["viewCursor"] = FormatCursor(s.sid, s.seq)
	if durable {
		if s.lastDurable == 0 {
			params["prevCursor"] = nil
		} else {
			params["prevCursor"] = FormatCursor(s.sid, s.lastDurable)
		}
		s.lastDurable = s.seq
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params, "emittedAtMs": 1754590941000 + s.seq})
	if err != nil {
		panic(err)
	}
	s.frames = append(s.frames, string(b))
}

func (it *simItem) object(status string) map[string]any {
	o := map[string]any{"itemId": it.id, "kind": it.kind, "turnId": it.turn, "revision": it.rev,
		"status": status, "recordedAt": "2026-08-07T18:42:31.400Z", "position": it.pos}
	for k, v := range it.fields {
		o[k] = v
	}
	return o
}

var simKinds = []string{KindAgentMessage, KindReasoning, KindToolCall, KindUserMessage, KindContextCompaction, KindError, KindQuestion, KindPlan, "diffPreview"}

func (s *sim) step(t *rapid.T) {
	switch rapid.IntRange(0, 12).Draw(t, "op") {
	case 0, 1: // start an item
		s.nItems++
		kind := rapid.SampledFrom(simKinds).Draw(t, "kind")
		it := &simItem{id: fmt.Sprintf("item-%d", s.nItems), kind: kind, turn: s.active, rev: 1, pos: s.seq + 1, fields: map[string]any{}}
		status := StatusInProgress
		switch kind {
		case KindReasoning:
			it.fields["summary"] = []any{}
		case KindToolCall:
			it.fields["toolName"] = "shell"
			it.fields["inputText"] = ""
			status = StatusInputStreaming
		case KindQuestion:
			it.fields["text"] = "Which one?"
			it.fields["options"] = []any{map[string]any{"label": "a", "description": "the first"}, map[string]any{"label": "b"}}
			it.fields["multiple"] = rapid.Bool().Draw(t, "multiple")
			it.fields["freeText"] = true
			status = StatusWaitingUser
		case KindPlan:
			it.fields["steps"] = simPlanSteps(t)
		case "diffPreview":
			it.fields["hunks"] = []any{map[string]any{"path": "a.go", "added": 3}}
		default:
			it.fields["text"] = ""
		}
		it.fields["_status"] = status
		s.items[it.id] = it
		s.open = append(s.open, it.id)
		s.emit(MethodItemStarted, true, map[string]any{"item": it.objectNoMeta()})
	case 2, 3, 4: // a delta
		if len(s.open) == 0 {
			return
		}
		it := s.items[rapid.SampledFrom(s.open).Draw(t, "deltaItem")]
		if it.kind == KindPlan {
			return // a plan is revised whole, never streamed
		}
		field := "text"
		switch it.kind {
		case KindReasoning:
			n := len(it.fields["summary"].([]any))
			i := rapid.IntRange(max(0, n-1), n).Draw(t, "part")
			field = fmt.Sprintf("summary.%d", i)
		case KindToolCall:
			field = rapid.SampledFrom([]string{"inputText", "output"}).Draw(t, "toolField")
		}
		d := rapid.StringMatching(`[a-zé\n ]{0,6}`).Draw(t, "delta")
		s.appendField(it, field, d)
		s.emit(MethodItemDelta, false, map[string]any{"itemId": it.id, "field": field, "delta": d})
	case 5: // update
		if len(s.open) == 0 {
			return
		}
		it := s.items[rapid.SampledFrom(s.open).Draw(t, "updItem")]
		it.rev++
		if it.kind == KindToolCall {
			it.fields["_status"] = rapid.SampledFrom([]string{StatusReady, StatusWaitingUser, StatusRunning}).Draw(t, "toolStatus")
		}
		if it.kind == KindPlan {
			it.fields["steps"] = simPlanSteps(t) // a revision restates every step
		}
		s.emit(MethodItemUpdated, true, map[string]any{"item": it.objectNoMeta()})
	case 6: // complete
		if len(s.open) == 0 {
			return
		}
		i := rapid.IntRange(0, len(s.open)-1).Draw(t, "doneIdx")
		it := s.items[s.open[i]]
		s.open = append(s.open[:i:i], s.open[i+1:]...)
		it.rev++
		c := map[string]string{}
		for k, v := range it.fields {
			if str, ok := v.(string); ok && !strings.HasPrefix(k, "_") {
				c[k] = str
			}
		}
		s.committed[it.id] = c
		terminals := []string{StatusCompleted, StatusFailed, StatusStopped}
		if it.kind == KindQuestion {
			terminals = []string{StatusAnswered, StatusCancelled}
		}
		it.fields["_status"] = rapid.SampledFrom(terminals).Draw(t, "terminal")
		if it.fields["_status"] == StatusAnswered {
			it.fields["answer"] = map[string]any{"selected": []any{"a"}, "text": rapid.SampledFrom([]string{"", "use b"}).Draw(t, "answerText")}
		}
		s.emit(MethodItemCompleted, true, map[string]any{"item": it.objectNoMeta()})
	case 7: // single-record item
		s.nItems++
		it := &simItem{id: fmt.Sprintf("item-%d", s.nItems), kind: KindError, turn: s.active, rev: 1, pos: s.seq + 1,
			fields: map[string]any{"message": "boom", "_status": StatusCompleted}}
		s.items[it.id] = it
		s.emit(MethodItemCompleted, true, map[string]any{"item": it.objectNoMeta()})
	case 8: // queue or start a turn
		s.nTurns++
		tid := fmt.Sprintf("turn-%d", s.nTurns)
		cid := fmt.Sprintf("cmd-%d", s.nTurns)
		if s.active == "" {
			s.active = tid
			s.emit(MethodTurnStarted, true, map[string]any{"turnId": tid, "commandId": cid, "startedAt": "2026-08-07T18:42:31Z"})
		} else {
			s.queued = append(s.queued, tid)
			s.emit(MethodTurnQueued, true, map[string]any{"turnId": tid, "commandId": cid, "text": "prompt " + tid, "position": len(s.queued)})
		}
	case 9: // finish the active turn, start the next queued one
		if s.active == "" {
			return
		}
		s.emit(MethodTurnCompleted, true, map[string]any{"turnId": s.active, "status": rapid.SampledFrom([]string{"completed", "failed", "stopped"}).Draw(t, "turnStatus")})
		s.active = ""
		if len(s.queued) > 0 {
			s.active, s.queued = s.queued[0], s.queued[1:]
			s.emit(MethodTurnStarted, true, map[string]any{"turnId": s.active, "startedAt": "2026-08-07T18:43:00Z"})
		}
	case 10: // unqueue
		if len(s.queued) == 0 {
			return
		}
		tid := s.queued[len(s.queued)-1]
		s.queued = s.queued[:len(s.queued)-1]
		s.emit(MethodTurnUnqueued, true, map[string]any{"turnId": tid, "commandId": "cmd-" + strings.TrimPrefix(tid, "turn-"), "reason": "user"})
	case 11: // approvals
		if len(s.approvals) > 0 && rapid.Bool().Draw(t, "resolve") {
			a := s.approvals[0]
			s.approvals = s.approvals[1:]
			s.emit(MethodApprovalResolved, true, map[string]any{"approvalId": a, "decision": "approve"})
			return
		}
		a := fmt.Sprintf("appr-%d", s.seq)
		s.approvals = append(s.approvals, a)
		s.emit(MethodApprovalRequested, true, map[string]any{"approvalId": a, "turnId": s.active, "itemId": "item-1", "summary": "run ls", "options": []string{"approve", "deny"}})
	case 12: // session state or a warning
		if rapid.Bool().Draw(t, "state") {
			s.emit(MethodSessionState, true, map[string]any{"title": rapid.SampledFrom([]string{"Fix tests", "Refactor <sync> & co"}).Draw(t, "title"), "model": "demo-1"})
		} else {
			s.emit(MethodWarning, false, map[string]any{"requestKind": "turn", "code": "rate_limited", "message": "429", "retryable": true, "attempt": 1, "maxAttempts": 3, "willRetry": true, "turnId": s.active})
		}
	}
}

func (it *simItem) objectNoMeta() map[string]any {
	o := it.object(it.fields["_status"].(string))
	delete(o, "_status")
	return o
}

func (s *sim) appendField(it *simItem, field, d string) {
	if strings.HasPrefix(field, "summary.") {
		var i int
		if _, err := fmt.Sscanf(field, "summary.%d", &i); err != nil {
			panic("sim: bad summary path " + field)
		}
		parts := it.fields["summary"].([]any)
		if i == len(parts) {
			parts = append(parts, "")
		}
		parts[i] = parts[i].(string) + d
		it.fields["summary"] = parts
		return
	}
	cur, _ := it.fields[field].(string)
	it.fields[field] = cur + d
}

// genScript draws a session's event stream.
func genScript(t *rapid.T) *sim {
	s := newSim("0198f0aa-1111-7000-8000-0000000000aa")
	n := rapid.IntRange(1, 80).Draw(t, "steps")
	for i := 0; i < n || len(s.frames) == 0; i++ {
		s.step(t)
	}
	return s
}

// tbLike is what the helpers need of *testing.T, *testing.B and *rapid.T.
type tbLike interface {
	Helper()
	Fatalf(format string, args ...any)
}

func decodeAll(tb tbLike, frames []string) []*Event {
	tb.Helper()
	out := make([]*Event, len(frames))
	for i, f := range frames {
		ev, err := DecodeFrame([]byte(f))
		if err != nil {
			tb.Fatalf("frame %d: %v\n%s", i, err, f)
		}
		out[i] = ev
	}
	return out
}

func foldAll(tb tbLike, evs []*Event) *State {
	tb.Helper()
	s := NewState("0198f0aa-1111-7000-8000-0000000000aa")
	for i, ev := range evs {
		if err := s.Apply(ev); err != nil {
			tb.Fatalf("event %d (%s): %v", i, ev.Method, err)
		}
	}
	return s
}

// simPlanSteps draws a plan's steps, restated whole at each revision.
func simPlanSteps(t *rapid.T) []any {
	n := rapid.IntRange(0, 4).Draw(t, "steps")
	steps := make([]any, n)
	for i := range steps {
		steps[i] = map[string]any{"text": fmt.Sprintf("step %d", i+1),
			"status": rapid.SampledFrom([]string{StepPending, StepInProgress, StepCompleted}).Draw(t, "stepStatus")}
	}
	return steps
}
