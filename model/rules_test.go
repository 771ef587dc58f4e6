package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const sid = "s1"

// frame builds a wire frame for session s1. prev < 0 means an ephemeral
// event (no prevCursor); prev == 0 a durable event with prevCursor null.
func frame(method string, seq, prev int64, params string) string {
	p := fmt.Sprintf(`"sessionId":%q,"viewCursor":%q`, sid, FormatCursor(sid, seq))
	if prev == 0 {
		p += `,"prevCursor":null`
	} else if prev > 0 {
		p += fmt.Sprintf(`,"prevCursor":%q`, FormatCursor(sid, prev))
	}
	if params != "" {
		p += "," + params
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{%s},"emittedAtMs":1}`, method, p)
}

func item(id, kind string, rev int64, status, extra string) string {
	s := fmt.Sprintf(`"item":{"itemId":%q,"kind":%q,"turnId":"t1","revision":%d,"status":%q,"recordedAt":"2026-08-07T18:42:31Z"`, id, kind, rev, status)
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func delta(id, field, d string) string {
	if field == "" {
		return fmt.Sprintf(`"itemId":%q,"delta":%q`, id, d)
	}
	return fmt.Sprintf(`"itemId":%q,"field":%q,"delta":%q`, id, field, d)
}

// fold applies frames in order to a fresh state and fails on any error.
func fold(t testing.TB, frames ...string) *State {
	t.Helper()
	s := NewState(sid)
	for _, f := range frames {
		mustApply(t, s, f)
	}
	return s
}

func mustApply(t testing.TB, s *State, f string) {
	t.Helper()
	ev, err := DecodeFrame([]byte(f))
	if err != nil {
		t.Fatalf("decode %s: %v", f, err)
	}
	if err := s.Apply(ev); err != nil {
		t.Fatalf("apply %s: %v", f, err)
	}
}

func applyErr(t *testing.T, s *State, f string) error {
	t.Helper()
	ev, err := DecodeFrame([]byte(f))
	if err != nil {
		t.Fatalf("decode %s: %v", f, err)
	}
	return s.Apply(ev)
}

func reason(err error) Reason {
	var fe *FoldError
	if errors.As(err, &fe) {
		return fe.Reason
	}
	return ""
}

func TestRuleReplaceIffHigherRevision(t *testing.T) {
	base := frame(MethodItemStarted, 1, 0, item("a", KindAgentMessage, 2, "inProgress", `"text":"two"`))
	cases := []struct {
		name string
		rev  int64
		want string
	}{
		{"higher replaces", 3, "three"},
		{"equal is ignored", 2, "two"},
		{"lower is ignored", 1, "two"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fold(t, base, frame(MethodItemUpdated, 2, 1, item("a", KindAgentMessage, c.rev, "inProgress", `"text":"three"`)))
			if got := s.Item("a").Text(); got != c.want {
				t.Fatalf("text %q, want %q", got, c.want)
			}
		})
	}
}

func TestRuleUpdatedOrCompletedForUnseenItemIsAccepted(t *testing.T) {
	for _, m := range []string{MethodItemUpdated, MethodItemCompleted} {
		s := fold(t, frame(m, 4, 0, item("x", KindError, 1, "completed", `"message":"disk full"`)))
		it := s.Item("x")
		if it == nil || it.ErrorMessage() != "disk full" {
			t.Fatalf("%s: item not accepted: %+v", m, it)
		}
		if it.Position != 4 {
			t.Fatalf("%s: position %d, want the event's seq 4", m, it.Position)
		}
	}
}

func TestRuleDeltasAppendToFieldPaths(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "Hello")),
		frame(MethodItemDelta, 3, -1, delta("m", "text", ", world")),
		frame(MethodItemStarted, 4, 1, item("r", KindReasoning, 1, "inProgress", `"summary":[]`)),
		frame(MethodItemDelta, 5, -1, delta("r", "summary.0", "first")),
		frame(MethodItemDelta, 6, -1, delta("r", "summary.1", "second")),
		frame(MethodItemDelta, 7, -1, delta("r", "summary.0", " part")),
		frame(MethodItemStarted, 8, 4, item("t", KindToolCall, 1, "inputStreaming", `"toolName":"shell","meta":{"notes":["a"]}`)),
		frame(MethodItemDelta, 9, -1, delta("t", "inputText", `{"cmd":`)),
		frame(MethodItemDelta, 10, -1, delta("t", "output", "line1\n")),
		frame(MethodItemDelta, 11, -1, delta("t", "meta.notes.0", "b")),
		frame(MethodItemDelta, 12, -1, delta("t", "meta.notes.1", "c")),
	)
	checks := map[string]string{
		"m text": s.Item("m").Text(), "r summary.0": s.Item("r").String("summary.0"),
		"r summary.1": s.Item("r").String("summary.1"), "t inputText": s.Item("t").InputText(),
		"t output": s.Item("t").Output(), "t meta": string(s.Item("t").Field("meta")),
	}
	want := map[string]string{
		"m text": "Hello, world", "r summary.0": "first part", "r summary.1": "second",
		"t inputText": `{"cmd":`, "t output": "line1\n", "t meta": `{"notes":["ab","c"]}`,
	}
	for k, w := range want {
		if checks[k] != w {
			t.Errorf("%s = %q, want %q", k, checks[k], w)
		}
	}
	if got := s.Item("r").Summary(); len(got) != 2 {
		t.Errorf("summary %q", got)
	}
}

func TestRuleDeltaBumpsNoRevision(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "abc")),
	)
	if it := s.Item("m"); it.Revision != 1 || it.Version != 2 {
		t.Fatalf("revision %d version %d, want 1 and 2", it.Revision, it.Version)
	}
}

func TestRuleLaterFullObjectRestatesFieldAndWins(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "draft that was wrong")),
		frame(MethodItemCompleted, 3, 1, item("m", KindAgentMessage, 2, "completed", `"text":"final"`)),
	)
	if got := s.Item("m").Text(); got != "final" {
		t.Fatalf("text %q", got)
	}
}

func TestRuleBadDeltaIsTypedErrorAndChangesNothing(t *testing.T) {
	setup := []string{
		frame(MethodItemStarted, 1, 0, item("open", KindToolCall, 1, "running", `"exitCode":3,"input":{"cmd":"ls"},"output":"x"`)),
		frame(MethodItemCompleted, 2, 1, item("done", KindAgentMessage, 2, "completed", `"text":"end"`)),
	}
	cases := []struct {
		name  string
		frame string
		want  Reason
	}{
		{"unknown item", frame(MethodItemDelta, 3, -1, delta("ghost", "", "x")), UnknownItem},
		{"terminal item", frame(MethodItemDelta, 3, -1, delta("done", "", "x")), TerminalItem},
		{"number field", frame(MethodItemDelta, 3, -1, delta("open", "exitCode", "x")), FieldNotString},
		{"object field", frame(MethodItemDelta, 3, -1, delta("open", "input", "x")), FieldNotString},
		{"through a scalar", frame(MethodItemDelta, 3, -1, delta("open", "output.0", "x")), FieldNotString},
		{"common field", frame(MethodItemDelta, 3, -1, delta("open", "status", "x")), BadFieldPath},
		{"index past the end", frame(MethodItemDelta, 3, -1, delta("open", "parts.3", "x")), BadFieldPath},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fold(t, setup...)
			before := s.Encode()
			err := applyErr(t, s, c.frame)
			if reason(err) != c.want {
				t.Fatalf("error %v, want reason %s", err, c.want)
			}
			if after := s.Encode(); !bytes.Equal(before, after) || s.Cursor != 2 {
				t.Fatalf("state changed:\n%s\n%s", before, after)
			}
		})
	}
}

func TestRuleTruncatedFieldsAreKeptAndExposed(t *testing.T) {
	s := fold(t, frame(MethodItemCompleted, 1, 0, item("t", KindToolCall, 3, "completed", `"output":"cut","truncated":["output"]`)))
	it := s.Item("t")
	if !it.Truncated("output") || it.Truncated("inputText") {
		t.Fatalf("truncated: output %v inputText %v", it.Truncated("output"), it.Truncated("inputText"))
	}
	if !strings.Contains(string(s.Encode()), `"truncated":["output"]`) {
		t.Fatal("truncated member not kept in the encoding")
	}
	s2 := fold(t, frame(MethodItemCompleted, 1, 0, item("m", KindAgentMessage, 3, "completed", `"text":"cut","truncated":true`)))
	if !s2.Item("m").Truncated("text") {
		t.Fatal("truncated: true not honoured")
	}
}

func TestRuleUnknownKindsAndFieldsSurviveRoundTrip(t *testing.T) {
	raw := `{"itemId":"u","kind":"diffPreview","turnId":"t1","revision":1,"status":"completed","recordedAt":"r","position":1,"hunks":[{"path":"a.go","added":3,"note":"é<>"}],"score":1.50,"flag":null}`
	it, err := DecodeItem([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(it.AppendJSON(nil), &b); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("round trip changed the item:\n%v\n%v", a, b)
	}
	if !strings.Contains(string(it.AppendJSON(nil)), `"score":1.50`) {
		t.Fatalf("number spelling lost: %s", it.AppendJSON(nil))
	}
	s := fold(t, frame(MethodItemStarted, 1, 0, `"item":`+raw))
	if s.Item("u").Kind != "diffPreview" || len(s.Item("u").FieldNames()) != 10 {
		t.Fatalf("unknown kind not kept whole: %v", s.Item("u").FieldNames())
	}
}

func TestRuleTurnsQueueStartAndComplete(t *testing.T) {
	for _, status := range []string{"completed", "failed", "stopped"} {
		t.Run(status, func(t *testing.T) {
			s := fold(t,
				frame(MethodTurnStarted, 1, 0, `"turnId":"t1","commandId":"c1","startedAt":"2026-01-01T00:00:00Z"`),
				frame(MethodTurnQueued, 2, 1, `"turnId":"t2","commandId":"c2","text":"next","position":1`),
				frame(MethodTurnQueued, 3, 2, `"turnId":"t3","commandId":"c3","text":"later","position":2`),
			)
			if a := s.ActiveTurn(); a == nil || a.TurnID != "t1" || a.CommandID != "c1" || len(s.QueuedTurns()) != 2 {
				t.Fatalf("active %+v queued %+v", a, s.QueuedTurns())
			}
			mustApply(t, s, frame(MethodTurnCompleted, 4, 3, fmt.Sprintf(`"turnId":"t1","status":%q,"error":{"code":"x","message":"y"}`, status)))
			if s.ActiveTurn() != nil || s.Turn("t1").Status != status || s.Turn("t1").Error.Code != "x" {
				t.Fatalf("turn not completed: %+v", s.Turn("t1"))
			}
			mustApply(t, s, frame(MethodTurnUnqueued, 5, 4, `"turnId":"t3","commandId":"c3","reason":"user"`))
			mustApply(t, s, frame(MethodTurnStarted, 6, 5, `"turnId":"t2","startedAt":"2026-01-01T00:01:00Z"`))
			if a := s.ActiveTurn(); a == nil || a.CommandID != "c2" || len(s.QueuedTurns()) != 0 {
				t.Fatalf("queued turn did not start: %+v %+v", a, s.QueuedTurns())
			}
		})
	}
}

func TestRuleApprovalsAndSessionState(t *testing.T) {
	s := fold(t,
		frame(MethodApprovalRequested, 1, 0, `"approvalId":"a1","turnId":"t1","itemId":"i1","summary":"Run rm -rf build","options":["approve","deny"]`),
		frame(MethodSessionState, 2, 1, `"title":"Fix the flaky test","model":"demo"`),
		frame(MethodSessionState, 3, 2, `"title":"Renamed"`),
	)
	v := s.View()
	if len(v.Approvals) != 1 || v.Approvals[0].Summary != "Run rm -rf build" || len(v.Approvals[0].Options) != 2 {
		t.Fatalf("approvals %+v", v.Approvals)
	}
	if v.Title() != "Renamed" || v.StringValue("model") != "demo" {
		t.Fatalf("state %v", v.Values)
	}
	mustApply(t, s, frame(MethodApprovalResolved, 4, 3, `"approvalId":"a1","decision":"approve"`))
	if len(s.View().Approvals) != 0 {
		t.Fatal("approval not resolved")
	}
}

func TestRuleWarningsAreKeptApartFromHistory(t *testing.T) {
	s := fold(t, frame(MethodTurnStarted, 1, 0, `"turnId":"t1","startedAt":"x"`))
	before := s.Encode()
	mustApply(t, s, frame(MethodWarning, 2, -1, `"requestKind":"turn","code":"overloaded","message":"503","retryable":true,"attempt":1,"maxAttempts":3,"willRetry":true,"turnId":"t1"`))
	v := s.View()
	if len(v.Warnings) != 1 || !v.Warnings[0].WillRetry || v.Warnings[0].Attempt != 1 || s.Len() != 0 {
		t.Fatalf("warnings %+v items %d", v.Warnings, s.Len())
	}
	after := s.Encode()
	if !bytes.Equal(bytes.Replace(after, []byte(`"cursor":"v:s1:2"`), []byte(`"cursor":"v:s1:1"`), 1), before) {
		t.Fatalf("warning entered the transcript state:\n%s\n%s", before, after)
	}
	mustApply(t, s, frame(MethodTurnCompleted, 3, 1, `"turnId":"t1","status":"completed"`))
	if len(s.View().Warnings) != 0 {
		t.Fatal("warnings of a finished turn should clear")
	}
}

func TestRuleToolCallStateMachine(t *testing.T) {
	valid := [][2]string{{"inputStreaming", "ready"}, {"ready", "waitingUser"}, {"waitingUser", "running"},
		{"running", "completed"}, {"running", "failed"}, {"ready", "running"}, {"inputStreaming", "failed"}}
	invalid := [][2]string{{"running", "inputStreaming"}, {"completed", "running"}, {"waitingUser", "ready"}, {"inputStreaming", "running"}}
	for _, v := range valid {
		t.Run("valid/"+v[0]+"->"+v[1], func(t *testing.T) {
			if !ValidToolTransition(v[0], v[1]) {
				t.Errorf("%s -> %s should be valid", v[0], v[1])
			}
		})
	}
	for _, v := range invalid {
		t.Run("invalid/"+v[0]+"->"+v[1], func(t *testing.T) {
			if ValidToolTransition(v[0], v[1]) {
				t.Errorf("%s -> %s should be invalid", v[0], v[1])
			}
		})
	}
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("t", KindToolCall, 1, "running", "")),
		frame(MethodItemUpdated, 2, 1, item("t", KindToolCall, 2, "inputStreaming", "")),
	)
	d := s.TakeDiagnostics()
	if len(d) != 1 || d[0].Reason != InvalidTransition || s.Item("t").Status != "inputStreaming" {
		t.Fatalf("diagnostics %+v status %s", d, s.Item("t").Status)
	}
}

func TestRuleToolCompletionBeforeStartMergesIntoOneItem(t *testing.T) {
	s := fold(t,
		frame(MethodItemCompleted, 5, 0, item("t", KindToolCall, 4, "completed", `"toolName":"shell","output":"ok","exitCode":0,"position":3`)),
		frame(MethodItemStarted, 6, 5, item("t", KindToolCall, 1, "inputStreaming", `"toolName":"shell","position":3`)),
	)
	if s.Len() != 1 || s.Item("t").Status != "completed" || s.Item("t").Output() != "ok" {
		t.Fatalf("len %d item %s", s.Len(), s.Item("t").AppendJSON(nil))
	}
	if err := applyErr(t, s, frame(MethodItemDelta, 7, -1, delta("t", "output", "late"))); reason(err) != TerminalItem {
		t.Fatalf("late delta: %v", err)
	}
}

func TestRuleRedeliveryAndHeartbeatChangeNothing(t *testing.T) {
	f1 := frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`))
	f2 := frame(MethodItemDelta, 2, -1, delta("m", "", "once"))
	s := fold(t, f1, f2)
	before := s.Encode()
	for _, f := range []string{f1, f2, `{"jsonrpc":"2.0","method":"heartbeat"}`, `{"jsonrpc":"2.0","method":"heartbeat","params":{}}`} {
		mustApply(t, s, f)
	}
	if !bytes.Equal(before, s.Encode()) || s.Item("m").Text() != "once" {
		t.Fatalf("changed: %s", s.Encode())
	}
}

func TestRuleDecodeErrorsAreUpstreamFrameErrors(t *testing.T) {
	cases := map[string]string{
		"not json":           `{"jsonrpc":"2.0","method":`,
		"not an object":      `[1,2,3]`,
		"no method or id":    `{"jsonrpc":"2.0"}`,
		"unknown method":     frame("item/exploded", 1, 0, ""),
		"params not object":  `{"jsonrpc":"2.0","method":"item/delta","params":[1]}`,
		"missing cursor":     `{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","itemId":"a","delta":"x"}}`,
		"foreign cursor":     `{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s2:3","itemId":"a","delta":"x"}}`,
		"delta not a string": frame(MethodItemDelta, 2, -1, `"itemId":"a","delta":{"text":"x"}`),
		"delta missing":      frame(MethodItemDelta, 2, -1, `"itemId":"a"`),
		"field not a string": frame(MethodItemDelta, 2, -1, `"itemId":"a","field":3,"delta":"x"`),
		"item missing":       frame(MethodItemStarted, 1, 0, ""),
		"item no revision":   frame(MethodItemStarted, 1, 0, `"item":{"itemId":"a","kind":"x"}`),
		"item revision zero": frame(MethodItemStarted, 1, 0, `"item":{"itemId":"a","kind":"x","revision":0}`),
		"item wrong type":    frame(MethodItemStarted, 1, 0, `"item":{"itemId":7,"kind":"x","revision":1}`),
		"turn without id":    frame(MethodTurnStarted, 1, 0, `"startedAt":"x"`),
		"bad prevCursor":     frame(MethodTurnStarted, 1, -1, `"turnId":"t","prevCursor":12`),
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeFrame([]byte(f))
			if reason(err) != UpstreamFrameError {
				t.Fatalf("got %v, want an upstream_frame_error", err)
			}
		})
	}
}

func TestRuleUnknownMethodIsReportedAndCanBeSteppedOver(t *testing.T) {
	s := fold(t, frame(MethodTurnStarted, 1, 0, `"turnId":"t1","startedAt":"x"`))
	ev, err := DecodeFrame([]byte(frame("plan/updated", 2, 1, `"plan":["a"]`)))
	if reason(err) != UpstreamFrameError || ev == nil || !ev.Durable || ev.Seq != 2 {
		t.Fatalf("err %v ev %+v", err, ev)
	}
	before := s.Encode()
	s.Pass(ev)
	if s.DurableCursor != 2 || s.Cursor != 2 {
		t.Fatalf("cursors %d/%d", s.Cursor, s.DurableCursor)
	}
	if !bytes.Equal(bytes.ReplaceAll(s.Encode(), []byte("v:s1:2"), []byte("v:s1:1")), before) {
		t.Fatal("Pass changed more than the cursors")
	}
}

func TestRuleEphemeralHostDeathMarksOpenItemsTerminalUnknown(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("open", KindAgentMessage, 1, "inProgress", `"text":"half"`)),
		frame(MethodItemCompleted, 2, 1, item("done", KindAgentMessage, 1, "completed", `"text":"whole"`)),
	)
	before := s.Encode()
	v := s.View()
	if n := s.MarkTerminalUnknown(); n != 1 {
		t.Fatalf("marked %d", n)
	}
	if !s.Item("open").TerminalUnknown || s.Item("done").TerminalUnknown || v.Items[0].TerminalUnknown {
		t.Fatal("wrong items marked, or a published view changed")
	}
	if !bytes.Equal(before, s.Encode()) {
		t.Fatal("terminal-unknown is a display state and must not reach the encoding")
	}
}

func TestRuleSnapshotLimitAndOlderPages(t *testing.T) {
	var frames []string
	for i := int64(1); i <= 5; i++ {
		frames = append(frames, frame(MethodItemCompleted, i, i-1, item(fmt.Sprintf("i%d", i), KindAgentMessage, 1, "completed", `"text":"x"`)))
	}
	host := fold(t, frames...)
	snap := host.Snapshot(2)
	if len(snap.Items) != 2 || !snap.HasOlder {
		t.Fatalf("limited snapshot: %d items hasOlder %v", len(snap.Items), snap.HasOlder)
	}
	c := NewState(sid)
	if _, err := c.LoadSnapshot(sid, "e", snap); err != nil {
		t.Fatal(err)
	}
	if c.OldestPosition() != 4 || !c.HasOlder {
		t.Fatalf("oldest %d", c.OldestPosition())
	}
	var older []*Event
	for _, f := range frames[1:3] {
		ev, _ := DecodeFrame([]byte(f))
		older = append(older, ev)
	}
	if err := c.ApplyOlder(older, true); err != nil {
		t.Fatal(err)
	}
	if c.OldestPosition() != 2 || c.Len() != 4 || c.Cursor != 5 || c.DurableCursor != 5 {
		t.Fatalf("after older page: oldest %d len %d cursors %d/%d", c.OldestPosition(), c.Len(), c.Cursor, c.DurableCursor)
	}
}

func TestRuleSnapshotRejectsMalformedInput(t *testing.T) {
	good := fold(t, frame(MethodItemCompleted, 1, 0, item("a", KindAgentMessage, 1, "completed", `"text":"x"`))).Snapshot(0)
	bad := []func(*Snapshot){
		func(s *Snapshot) { s.Cursor = "v:other:1" },
		func(s *Snapshot) { s.DurableCursor = "v:s1:9" },
		func(s *Snapshot) { s.Items = append(s.Items, s.Items[0]) },
		func(s *Snapshot) {
			s.Items = []json.RawMessage{json.RawMessage(`{"itemId":"b","kind":"x","revision":1}`)}
		},
		func(s *Snapshot) { s.PendingApprovals = []json.RawMessage{json.RawMessage(`{"summary":"no id"}`)} },
	}
	for i, mutate := range bad {
		snap := good
		snap.Items = append([]json.RawMessage{}, good.Items...)
		mutate(&snap)
		s := fold(t, frame(MethodSessionState, 1, 0, `"title":"keep"`))
		before := s.Encode()
		if _, err := s.LoadSnapshot(sid, "e", snap); reason(err) != SnapshotError {
			t.Fatalf("case %d: %v", i, err)
		}
		if !bytes.Equal(before, s.Encode()) {
			t.Fatalf("case %d: a refused snapshot changed the state", i)
		}
	}
}

func TestRuleSnapshotReloadKeepsItemVersionsGrowing(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "abc")),
	)
	before := s.Item("m").Version
	host := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "abcdef")),
	)
	if _, err := s.LoadSnapshot(sid, "e", host.Snapshot(0)); err != nil {
		t.Fatal(err)
	}
	if got := s.Item("m"); got.Version <= before || got.Text() != "abcdef" {
		t.Fatalf("version %d (was %d), text %q", got.Version, before, got.Text())
	}
}

func TestRuleAppendStreamedRebuildsTextWithoutTheGate(t *testing.T) {
	s := fold(t,
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":"a"`)),
		frame(MethodItemCompleted, 3, 1, item("done", KindAgentMessage, 1, "completed", `"text":"x"`)),
	)
	// Deltas at seq 2 precede the cursor; a host replaying its records
	// still appends them.
	if err := s.AppendStreamed("m", "text", "bc"); err != nil || s.Item("m").Text() != "abc" {
		t.Fatalf("%v %q", err, s.Item("m").Text())
	}
	if err := s.AppendStreamed("done", "text", "y"); reason(err) != TerminalItem {
		t.Fatalf("terminal item: %v", err)
	}
	if err := s.AppendStreamed("ghost", "text", "y"); reason(err) != UnknownItem {
		t.Fatalf("unknown item: %v", err)
	}
}
