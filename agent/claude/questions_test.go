package claude

import (
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestClaudeAnswer(t *testing.T) {
	for _, c := range []struct {
		a    model.QuestionAnswer
		want string
	}{
		{model.QuestionAnswer{Selected: []string{"Postgres"}}, "Postgres"},
		{model.QuestionAnswer{Selected: []string{"a", "b"}}, "a, b"},
		{model.QuestionAnswer{Text: "neither"}, "neither"},
		{model.QuestionAnswer{Selected: []string{"a"}, Text: "and more"}, "a, and more"},
	} {
		if got := claudeAnswer(c.a); got != c.want {
			t.Errorf("claudeAnswer(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}

func TestAskUserQuestionsReadsEveryQuestion(t *testing.T) {
	in := json.RawMessage(`{"questions":[{"question":"Which?","header":"Pick","options":[{"label":"a","description":"first"},{"label":"b","description":"second"}],"multiSelect":true},` +
		`{"question":"Why?","header":"Reason","options":[{"label":"c","description":""},{"label":"d","description":""}],"multiSelect":false}]}`)
	qs, err := askUserQuestions(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].Text != "Which?" || qs[0].Header != "Pick" || !qs[0].Multiple || !qs[0].FreeText ||
		len(qs[0].Options) != 2 || qs[0].Options[0].Description != "first" || qs[1].Multiple {
		t.Fatalf("questions = %+v", qs)
	}
	allow, err := askUserAllow(in, qs, []model.QuestionAnswer{{Selected: []string{"a", "b"}}, {Text: "because"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(allow)
	var got struct {
		Behavior     string `json:"behavior"`
		UpdatedInput struct {
			Questions []json.RawMessage `json:"questions"`
			Answers   map[string]string `json:"answers"`
		} `json:"updatedInput"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Behavior != "allow" || len(got.UpdatedInput.Questions) != 2 ||
		got.UpdatedInput.Answers["Which?"] != "a, b" || got.UpdatedInput.Answers["Why?"] != "because" {
		t.Fatalf("allow = %s", b)
	}
	for _, bad := range []string{`{"questions":[]}`, `{"questions":[{"question":"","options":[{"label":"a"}]}]}`, `not json`} {
		if _, err := askUserQuestions(json.RawMessage(bad)); err == nil {
			t.Errorf("askUserQuestions(%s) took it", bad)
		}
	}
}
