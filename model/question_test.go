package model

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckAnswer(t *testing.T) {
	single := Question{Text: "Which?", Options: []QuestionOption{{Label: "a"}, {Label: "b"}}}
	multi := Question{Text: "Which?", Options: []QuestionOption{{Label: "a"}, {Label: "b"}}, Multiple: true}
	free := Question{Text: "Which?", Options: []QuestionOption{{Label: "a"}}, FreeText: true}
	long := string(make([]byte, MaxAnswerTextBytes+1))
	for _, c := range []struct {
		name string
		q    Question
		a    QuestionAnswer
		want AnswerProblem
	}{
		{"one pick", single, QuestionAnswer{Selected: []string{"a"}}, AnswerOK},
		{"nothing", single, QuestionAnswer{}, AnswerEmpty},
		{"unknown label", single, QuestionAnswer{Selected: []string{"c"}}, AnswerUnknownOption},
		{"two picks of a single choice", single, QuestionAnswer{Selected: []string{"a", "b"}}, AnswerTooMany},
		{"two picks of a multiple choice", multi, QuestionAnswer{Selected: []string{"a", "b"}}, AnswerOK},
		{"a pick twice", multi, QuestionAnswer{Selected: []string{"a", "a"}}, AnswerDuplicate},
		{"text where none is taken", single, QuestionAnswer{Text: "mine"}, AnswerNoFreeText},
		{"text alone", free, QuestionAnswer{Text: "mine"}, AnswerOK},
		{"text and a pick", free, QuestionAnswer{Selected: []string{"a"}, Text: "and this"}, AnswerOK},
		{"text too long", free, QuestionAnswer{Text: long}, AnswerTextTooLong},
	} {
		if got := CheckAnswer(c.q, c.a); got != c.want {
			t.Errorf("%s: CheckAnswer = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheckQuestion(t *testing.T) {
	many := make([]QuestionOption, MaxQuestionOptions+1)
	for i := range many {
		many[i].Label = string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	for _, c := range []struct {
		name string
		q    Question
		ok   bool
	}{
		{"options", Question{Text: "Which?", Options: []QuestionOption{{Label: "a"}}}, true},
		{"free text only", Question{Text: "Why?", FreeText: true}, true},
		{"no text", Question{Options: []QuestionOption{{Label: "a"}}}, false},
		{"nothing to answer with", Question{Text: "Which?"}, false},
		{"an empty label", Question{Text: "Which?", Options: []QuestionOption{{Label: ""}}}, false},
		{"a label twice", Question{Text: "Which?", Options: []QuestionOption{{Label: "a"}, {Label: "a"}}}, false},
		{"too many options", Question{Text: "Which?", Options: many}, false},
	} {
		if err := CheckQuestion(c.q); (err == nil) != c.ok {
			t.Errorf("%s: CheckQuestion = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

func TestInQuestionOrder(t *testing.T) {
	q := Question{Options: []QuestionOption{{Label: "a"}, {Label: "b"}, {Label: "c"}}}
	for _, c := range []struct {
		in, want []string
	}{
		{nil, []string{}},
		{[]string{"c", "a"}, []string{"a", "c"}},
		{[]string{"x", "b"}, []string{"b", "x"}},
	} {
		got := InQuestionOrder(q, QuestionAnswer{Selected: c.in})
		if !got.Equal(QuestionAnswer{Selected: c.want}) {
			t.Errorf("InQuestionOrder(%q) = %q, want %q", c.in, got.Selected, c.want)
		}
	}
}

func TestQuestionItemReadsBack(t *testing.T) {
	it, err := DecodeItem([]byte(`{"itemId":"Q","kind":"question","revision":2,"status":"answered","text":"Which?","header":"Pick",` +
		`"options":[{"label":"a","description":"first"},{"label":"b"},7],"multiple":true,"freeText":false,` +
		`"answer":{"selected":["a","b"],"text":"also c"}}`))
	if err != nil {
		t.Fatal(err)
	}
	q := it.QuestionOf()
	if q.Text != "Which?" || q.Header != "Pick" || !q.Multiple || q.FreeText || len(q.Options) != 2 || q.Options[0].Description != "first" {
		t.Fatalf("QuestionOf = %+v", q)
	}
	a, ok := it.AnswerOf()
	if !ok || !a.Equal(QuestionAnswer{Selected: []string{"a", "b"}, Text: "also c"}) {
		t.Fatalf("AnswerOf = %+v, %v", a, ok)
	}
	if it.IsOpen() {
		t.Fatal("an answered question reads as open")
	}
}

// A question folds under the revision rules like every item: answered on
// item/completed, it takes no delta, and a snapshot holding it answered
// holds it final too.
func TestQuestionFoldsUnderTheRevisionRules(t *testing.T) {
	frames := []string{
		`{"jsonrpc":"2.0","method":"item/started","params":{"sessionId":"S","viewCursor":"v:S:1","prevCursor":null,"item":{"itemId":"Q","kind":"question","turnId":"T","revision":1,"status":"waitingUser","position":1,"text":"Which?","options":[{"label":"a"}],"multiple":false,"freeText":true}}}`,
		`{"jsonrpc":"2.0","method":"item/completed","params":{"sessionId":"S","viewCursor":"v:S:2","prevCursor":"v:S:1","item":{"itemId":"Q","kind":"question","turnId":"T","revision":2,"status":"answered","position":1,"text":"Which?","options":[{"label":"a"}],"multiple":false,"freeText":true,"answer":{"selected":["a"]}}}}`,
		`{"jsonrpc":"2.0","method":"item/updated","params":{"sessionId":"S","viewCursor":"v:S:3","prevCursor":"v:S:2","item":{"itemId":"Q","kind":"question","turnId":"T","revision":1,"status":"waitingUser","position":1,"text":"Which?"}}}`,
	}
	st := NewState("S")
	for _, f := range frames {
		ev, err := DecodeFrame([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	it := st.Item("Q")
	if it == nil || it.Status != StatusAnswered || it.Revision != 2 {
		t.Fatalf("question = %+v, want answered at revision 2 (a lower revision never replaces)", it)
	}
	delta, err := DecodeFrame([]byte(`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"S","viewCursor":"v:S:4","itemId":"Q","delta":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var fe *FoldError
	if err := st.Apply(delta); !errors.As(err, &fe) || fe.Reason != TerminalItem {
		t.Fatalf("a delta to an answered question: %v, want %s", err, TerminalItem)
	}
	snap := st.Snapshot(0)
	re := NewState("S")
	if _, err := re.LoadSnapshot("S", "", snap); err != nil {
		t.Fatal(err)
	}
	if got := re.Item("Q"); got == nil || got.IsOpen() {
		t.Fatalf("from a snapshot the answered question is %+v, want final", got)
	}
}

func TestWaitingQuestions(t *testing.T) {
	item := func(id, turn, kind, status string) *Item {
		fields := `"text":"x"`
		if kind == KindQuestion {
			fields = `"text":"Which?","options":[],"multiple":false,"freeText":true`
		}
		it, err := DecodeItem([]byte(`{"itemId":"` + id + `","turnId":"` + turn + `","revision":1,"position":1,"recordedAt":"2026-08-07T18:43:05Z","kind":"` + kind + `","status":"` + status + `",` + fields + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	waiting := func(id, turn string) *Item { return item(id, turn, KindQuestion, StatusWaitingUser) }
	running := &ActiveTurn{TurnID: "t2"}
	tests := []struct {
		name   string
		items  []*Item
		active *ActiveTurn
		want   []string
	}{
		{"nothing runs", []*Item{waiting("q1", "t2")}, nil, nil},
		{"the running turn's, oldest first", []*Item{waiting("q1", "t2"), item("m", "t2", KindAgentMessage, StatusInProgress), waiting("q2", "t2")}, running, []string{"q1", "q2"}},
		{"answered and cancelled ones do not wait", []*Item{item("q1", "t2", KindQuestion, StatusAnswered), item("q2", "t2", KindQuestion, StatusCancelled), waiting("q3", "t2")}, running, []string{"q3"}},
		{"an earlier turn's never waits", []*Item{waiting("q0", "t1"), item("m", "t2", KindAgentMessage, StatusInProgress)}, running, nil},
		{"no items", nil, running, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, it := range WaitingQuestions(tc.items, tc.active) {
				got = append(got, it.ID)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("WaitingQuestions = %v, want %v", got, tc.want)
			}
		})
	}
}
