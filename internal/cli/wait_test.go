package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/model"
)

func TestWaitMet(t *testing.T) {
	approval := model.Approval{ApprovalID: "a1", Summary: "run \x1b[31mrm\x1b[0m -rf build\nand more"}
	failed := &model.TurnRecord{TurnID: "t1", Started: true, Status: model.StatusFailed}
	done := &model.TurnRecord{TurnID: "t1", Started: true, Status: model.StatusCompleted}
	running := &model.ActiveTurn{TurnID: "t2"}
	question := func(id, turn, status string) *model.Item {
		it, err := model.DecodeItem([]byte(`{"itemId":"` + id + `","turnId":"` + turn + `","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"question","status":"` + status + `","text":"Which \u001b[31mdb\u001b[0m?\nsecond line","options":[],"multiple":false,"freeText":true}`))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	tests := []struct {
		name, state string
		v           *model.View
		want        bool
		line        string
	}{
		{"no view yet", waitIdle, nil, false, ""},
		{"idle", waitIdle, &model.View{}, true, ""},
		{"a turn runs", waitIdle, &model.View{ActiveTurn: running}, false, ""},
		{"a turn is queued", waitIdle, &model.View{QueuedTurns: []model.QueuedTurn{{TurnID: "t3"}}}, false, ""},
		{"no approval", waitApproval, &model.View{ActiveTurn: running}, false, ""},
		{"an approval, its summary one visible line", waitApproval, &model.View{ActiveTurn: running, Approvals: []model.Approval{approval}}, true, "a1\t"},
		{"the last turn failed", waitFailed, &model.View{LastTurn: failed}, true, ""},
		{"a failure, then a turn runs", waitFailed, &model.View{LastTurn: failed, ActiveTurn: running}, false, ""},
		{"the last turn completed", waitFailed, &model.View{LastTurn: done}, false, ""},
		{"no question", waitQuestion, &model.View{ActiveTurn: running}, false, ""},
		{"a question waits, its text one visible line", waitQuestion, &model.View{ActiveTurn: running, Items: []*model.Item{question("q1", "t2", model.StatusWaitingUser)}}, true, "q1\tWhich "},
		{"the oldest waiting question", waitQuestion, &model.View{ActiveTurn: running, Items: []*model.Item{question("q0", "t2", model.StatusAnswered), question("q1", "t2", model.StatusWaitingUser), question("q2", "t2", model.StatusWaitingUser)}}, true, "q1\t"},
		{"a question of an earlier turn does not wait", waitQuestion, &model.View{ActiveTurn: running, Items: []*model.Item{question("q1", "t1", model.StatusWaitingUser)}}, false, ""},
		{"an unknown state", "questions", &model.View{}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line, ok := waitMet(tc.state, tc.v)
			if ok != tc.want || !strings.HasPrefix(line, tc.line) {
				t.Errorf("waitMet = (%q, %v), want (%q..., %v)", line, ok, tc.line, tc.want)
			}
			if strings.ContainsAny(line, "\x1b\n") {
				t.Errorf("the line %q is not one clean line", line)
			}
		})
	}
}

// TestCLIWait: lookout wait returns once an approval waits (printing it),
// once the session is idle, and exits 7 at its timeout; --for is checked.
func TestCLIWait(t *testing.T) {
	h := cliHost(t)
	sid := h.DefaultSessionID()
	tok := "--token=" + h.Token()

	if _, code := runCLI(t, "wait", h.URL(), "--session", sid, tok, "--for", "idle", "--timeout", "30s"); code != 0 {
		t.Fatalf("wait --for idle on an idle session: exit %d", code)
	}
	if _, code := runCLI(t, "wait", h.URL(), "--session", sid, tok, "--for", "approval", "--timeout", "1s"); code != exitTimeout {
		t.Fatalf("wait --for approval with none asked: exit %d, want %d", code, exitTimeout)
	}
	if _, code := runCLI(t, "wait", h.URL(), "--session", sid, tok, "--for", "lunch"); code != exitUsage {
		t.Fatalf("wait --for lunch: exit %d, want %d", code, exitUsage)
	}

	sent := make(chan int, 1)
	go func() {
		_, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "--on-approval", "ask", "run a tool please")
		sent <- code
	}()
	out, code := runCLI(t, "wait", h.URL(), "--session", sid, tok, "--for", "approval", "--timeout", "60s")
	if code != 0 || !strings.Contains(out, "\t") {
		t.Fatalf("wait --for approval: exit %d, %q", code, out)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), "\t")
	approved, code := runCLI(t, "send", h.URL(), "--session", sid, tok, "--on-approval", "approve", "and now say done")
	if code != 0 {
		t.Fatalf("a second send answering %s: exit %d, %q", id, code, approved)
	}
	select {
	case code := <-sent:
		if code != 0 {
			t.Fatalf("the first send: exit %d", code)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the first send never ended")
	}
	if _, code := runCLI(t, "wait", h.URL(), "--session", sid, tok, "--for", "idle", "--timeout", "30s"); code != 0 {
		t.Fatalf("wait --for idle after both turns: exit %d", code)
	}
}
