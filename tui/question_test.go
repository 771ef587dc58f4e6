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

func TestQuestionStep(t *testing.T) {
	single := model.Question{Text: "Which?", Options: []model.QuestionOption{{Label: "a"}, {Label: "b"}, {Label: "c"}}}
	multi := single
	multi.Multiple = true
	free := single
	free.FreeText = true
	type key struct{ key, text string }
	k := func(s string) key {
		if len([]rune(s)) == 1 && s != " " {
			return key{s, s}
		}
		return key{s, ""}
	}
	for _, c := range []struct {
		name string
		q    model.Question
		keys []key
		want model.QuestionAnswer
		act  questionAction
	}{
		{"a digit picks", single, []key{k("2"), k("enter")}, model.QuestionAnswer{Selected: []string{"b"}}, questionSend},
		{"another digit replaces a single pick", single, []key{k("2"), k("3"), k("enter")}, model.QuestionAnswer{Selected: []string{"c"}}, questionSend},
		{"enter on an option of a single choice picks it", single, []key{k("down"), k("enter")}, model.QuestionAnswer{Selected: []string{"b"}}, questionSend},
		{"digits toggle a multiple choice", multi, []key{k("3"), k("1"), k("3"), k("2"), k("enter")}, model.QuestionAnswer{Selected: []string{"a", "b"}}, questionSend},
		{"space toggles under the cursor", multi, []key{k("down"), k("space"), k("down"), k("space"), k("enter")}, model.QuestionAnswer{Selected: []string{"b", "c"}}, questionSend},
		{"nothing picked", multi, []key{k("enter")}, model.QuestionAnswer{Selected: []string{}}, questionEmpty},
		{"esc lets it wait", single, []key{k("1"), k("esc")}, model.QuestionAnswer{Selected: []string{"a"}}, questionRelease},
		{"typing starts the free text", free, []key{k("u"), k("s"), k("e"), k("space"), k("9"), k("enter")}, model.QuestionAnswer{Selected: []string{}, Text: "use 9"}, questionSend},
		{"a pick and text", free, []key{k("1"), k("down"), k("down"), k("down"), k("x"), k("y"), k("backspace"), k("enter")}, model.QuestionAnswer{Selected: []string{"a"}, Text: "x"}, questionSend},
		{"no text where none is taken", single, []key{k("x"), k("enter")}, model.QuestionAnswer{Selected: []string{"a"}}, questionSend},
		{"a digit past the options", single, []key{k("7"), k("enter")}, model.QuestionAnswer{Selected: []string{"a"}}, questionSend},
	} {
		in := newQuestionInput("Q", c.q)
		act := questionStay
		for _, key := range c.keys {
			in, act = questionStep(c.q, in, key.key, key.text)
		}
		if got := in.answer(c.q).QuestionAnswer; act != c.act || !got.Equal(c.want) {
			t.Errorf("%s: answer %+v, action %d; want %+v, %d", c.name, got, act, c.want, c.act)
		}
	}
}

// The question card takes the keyboard from the composer, and its answer
// reaches the host over a real client; esc leaves it waiting and alt+q
// comes back to it.
func TestQuestionCardAnswersThroughTheHost(t *testing.T) {
	h := hosttest.Start(t, host.Options{Ephemeral: true})
	rc := hosttest.Dial(t, h)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	rc.MustCall(t, "session/create", map[string]any{"title": "questions"}, &created)
	rc.Close()
	c, _ := runSource(t, sync.Options{URL: h.URL(), Token: h.Token(), SessionID: created.SessionID, CacheDir: "-"})
	waitSource(t, c, "live", func(p sync.Picture) bool { return p.Freshness.State == sync.Live })
	d := newDriver(t, 80, 24, Options{Source: c})
	d.typeText("pick a multiple choice")
	d.keys("enter")
	paint(t, d, c, "the question card", func() bool { return d.lineOf("your own answer") >= 0 })
	screen := d.screen()
	for _, want := range []string{"Test suite · Which test suites", "1. [ ] Unit", "3. [ ] End to end", "enter sends"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the card lacks %q:\n%s", want, screen)
		}
	}
	d.keys("esc")
	paint(t, d, c, "the waiting line", func() bool { return d.lineOf("alt+q answers") >= 0 })
	d.keys("alt+q", "1", "3")
	paint(t, d, c, "the picks", func() bool { return d.lineOf("[x] End to end") >= 0 })
	d.keys("enter")
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := c.Current()
		var q *model.Item
		for _, it := range p.View.Items {
			if it.Kind == model.KindQuestion {
				q = it
			}
		}
		if q != nil && q.Status == model.StatusAnswered {
			a, _ := q.AnswerOf()
			if !a.Equal(model.QuestionAnswer{Selected: []string{"Unit", "End to end"}}) {
				t.Fatalf("answered %+v", a)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the question was never answered; errors %q", p.Errors)
		}
		time.Sleep(20 * time.Millisecond)
	}
	paint(t, d, c, "the answered card", func() bool { return d.lineOf("answered") >= 0 && d.lineOf("your own answer") < 0 })
}
