package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
)

func TestPinnedPlanRows(t *testing.T) {
	for _, c := range []struct{ height, want int }{
		{8, 1}, {12, 3}, {24, 3}, {32, 4}, {40, 5}, {48, 6}, {100, 6},
	} {
		if got := pinnedPlanRows(c.height); got != c.want {
			t.Errorf("pinnedPlanRows(%d) = %d, want %d", c.height, got, c.want)
		}
	}
}

func TestRunningPlan(t *testing.T) {
	st := model.NewState("S")
	apply := func(method, item string) {
		t.Helper()
		ev, err := model.DecodeNotification(method, []byte(`{"sessionId":"S","viewCursor":"v:S:`+itoa(int(st.Cursor)+1)+`","prevCursor":null,"item":`+item+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	if runningPlan(st.View()) != nil {
		t.Fatal("a plan with no turn")
	}
	ev, _ := model.DecodeNotification(model.MethodTurnStarted, []byte(`{"sessionId":"S","viewCursor":"v:S:1","prevCursor":null,"turnId":"T","startedAt":"2026-01-01T00:00:00Z"}`))
	if err := st.Apply(ev); err != nil {
		t.Fatal(err)
	}
	apply(model.MethodItemStarted, `{"itemId":"P","kind":"plan","turnId":"T","revision":1,"status":"inProgress","steps":[]}`)
	apply(model.MethodItemStarted, `{"itemId":"A","kind":"agentMessage","turnId":"T","revision":1,"status":"inProgress","text":""}`)
	if it := runningPlan(st.View()); it == nil || it.ID != "P" {
		t.Fatalf("runningPlan = %v, want P", it)
	}
	apply(model.MethodItemCompleted, `{"itemId":"P","kind":"plan","turnId":"T","revision":2,"status":"completed","steps":[]}`)
	if it := runningPlan(st.View()); it != nil {
		t.Fatalf("an ended plan is still pinned: %v", it.ID)
	}
}

// The demo's plan is pinned above the composer while its turn runs,
// follows its revisions, collapses to one line with alt+p, and goes once
// the turn ends, the plan staying in the transcript, done.
func TestPlanIsPinnedWhileItsTurnRuns(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true, Pace: 25 * time.Millisecond})
	rc := hosttest.Dial(t, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	rc.MustCall(t, "session/create", map[string]any{"title": "plans"}, &created)
	rc.Close()
	c, _ := runSource(t, sync.Options{URL: h.URL(), Token: h.Token(), SessionID: created.SessionID, CacheDir: "-"})
	waitSource(t, c, "live", func(p sync.Picture) bool { return p.Freshness.State == sync.Live })
	d := newDriver(t, 80, 24, Options{Source: c})
	d.typeText("make a plan")
	d.keys("enter")
	// pinned is the pinned plan's first line ("" when none): the card in
	// the transcript starts with its box instead.
	pinned := func() string {
		for _, l := range strings.Split(d.screen(), "\n") {
			if strings.HasPrefix(l, " ☰ Plan ") {
				return l
			}
		}
		return ""
	}
	paint(t, d, c, "the pinned plan", func() bool { return strings.Contains(pinned(), "alt+p collapses") })
	paint(t, d, c, "a revision with a step added", func() bool { return strings.Contains(pinned(), "/5 ·") })
	d.keys("alt+p")
	paint(t, d, c, "the collapsed plan", func() bool { return d.lineOf("alt+p expands") >= 0 })
	if i := d.lineOf("alt+p expands"); !strings.Contains(strings.Split(d.screen(), "\n")[i+1], "prompt") {
		t.Fatalf("the collapsed plan is not one line above the composer:\n%s", d.screen())
	}
	paint(t, d, c, "the turn's end", func() bool {
		p := c.Current()
		// The screen has caught up with the turn's end once its status
		// says idle.
		return p.View != nil && p.View.ActiveTurn == nil && d.lineOf("That is all for now.") >= 0 && d.lineOf("plans · idle") >= 0
	})
	if pinned() != "" {
		t.Fatalf("the plan is still pinned after its turn:\n%s", d.screen())
	}
	var plan *model.Item
	for _, it := range c.Current().View.Items {
		if it.Kind == model.KindPlan {
			plan = it
		}
	}
	if plan == nil || plan.Status != model.StatusCompleted || plan.PlanOf().Done() != 5 {
		t.Fatalf("the plan in the transcript: %v", plan)
	}
}
