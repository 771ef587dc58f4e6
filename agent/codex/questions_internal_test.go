package codex

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestLookoutQuestions(t *testing.T) {
	tests := []struct {
		name    string
		params  string
		want    []model.Question
		wantErr string
	}{
		{"options, other allowed",
			`{"questions":[{"id":"db","header":"Database","question":"Which?","options":[{"label":"A","description":"a"}],"isOther":true,"isSecret":false}]}`,
			[]model.Question{{Text: "Which?", Header: "Database", FreeText: true, Options: []model.QuestionOption{{Label: "A", Description: "a"}}}}, ""},
		{"options only",
			`{"questions":[{"id":"db","header":"","question":"Which?","options":[{"label":"A","description":""},{"label":"B","description":""}],"isOther":false}]}`,
			[]model.Question{{Text: "Which?", Options: []model.QuestionOption{{Label: "A"}, {Label: "B"}}}}, ""},
		{"no options is typed",
			`{"questions":[{"id":"name","header":"","question":"Its name?","options":null,"isOther":false}]}`,
			[]model.Question{{Text: "Its name?", FreeText: true, Options: []model.QuestionOption{}}}, ""},
		{"no questions", `{"questions":[]}`, nil, "no questions"},
		{"no id", `{"questions":[{"id":"","question":"Which?","isOther":true}]}`, nil, "question 1 has no id"},
		{"a secret", `{"questions":[{"id":"k","question":"Key?","isOther":true,"isSecret":true}]}`, nil, "question 1: it asks for a secret"},
		{"no text", `{"questions":[{"id":"k","question":"","isOther":true}]}`, nil, "question 1: a question needs text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p userInputParams
			if err := json.Unmarshal([]byte(tt.params), &p); err != nil {
				t.Fatal(err)
			}
			got, err := lookoutQuestions(p)
			if tt.wantErr != "" {
				if err == nil || len(err.Error()) < len(tt.wantErr) || err.Error()[:len(tt.wantErr)] != tt.wantErr {
					t.Fatalf("err = %v, want %q...", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	var p userInputParams
	_ = json.Unmarshal([]byte(`{"questions":[{"id":"k","question":"Key?","isSecret":true}]}`), &p)
	if _, err := lookoutQuestions(p); !errors.Is(err, errSecretQuestion) {
		t.Errorf("a secret question's error %v is not errSecretQuestion", err)
	}
}

func TestCodexAnswers(t *testing.T) {
	p := userInputParams{Questions: []codexQuestion{{ID: "db"}, {ID: "name"}}}
	got, _ := json.Marshal(codexAnswers(p, []model.QuestionAnswer{{Selected: []string{"A", "B"}, Text: "and C"}, {Text: "svc"}}))
	want := `{"answers":{"db":{"answers":["A","B","and C"]},"name":{"answers":["svc"]}}}`
	if string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
