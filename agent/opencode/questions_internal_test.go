package opencode

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

func TestLookoutQuestions(t *testing.T) {
	tests := []struct {
		name    string
		props   string
		want    []model.Question
		wantErr string
	}{
		{"custom defaults to free text",
			`{"id":"que1","questions":[{"question":"Which?","header":"DB","options":[{"label":"A","description":"a"},{"label":"B","description":"b"}]}]}`,
			[]model.Question{{Text: "Which?", Header: "DB", FreeText: true,
				Options: []model.QuestionOption{{Label: "A", Description: "a"}, {Label: "B", Description: "b"}}}}, ""},
		{"multiple, no typing",
			`{"id":"que1","questions":[{"question":"Which?","header":"","options":[{"label":"A","description":""}],"multiple":true,"custom":false}]}`,
			[]model.Question{{Text: "Which?", Multiple: true, Options: []model.QuestionOption{{Label: "A"}}}}, ""},
		{"two questions keep their order",
			`{"id":"que1","questions":[{"question":"One?","header":"","options":[]},{"question":"Two?","header":"","options":[]}]}`,
			[]model.Question{{Text: "One?", FreeText: true, Options: []model.QuestionOption{}}, {Text: "Two?", FreeText: true, Options: []model.QuestionOption{}}}, ""},
		{"no questions", `{"id":"que1","questions":[]}`, nil, "no questions"},
		{"nothing to answer with", `{"id":"que1","questions":[{"question":"Which?","header":"","options":[],"custom":false}]}`, nil, "question 1: a question needs options or free text"},
		{"a label twice", `{"id":"que1","questions":[{"question":"Which?","header":"","options":[{"label":"A"},{"label":"A"}]}]}`, nil, `question 1: option label "A" is given twice`},
		{"no text", `{"id":"que1","questions":[{"question":"","header":"","options":[{"label":"A"}]}]}`, nil, "question 1: a question needs text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p questionAsked
			if err := json.Unmarshal([]byte(tt.props), &p); err != nil {
				t.Fatal(err)
			}
			got, err := lookoutQuestions(p)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
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
}

func TestOpenCodeAnswers(t *testing.T) {
	tests := []struct {
		name string
		in   []model.QuestionAnswer
		want [][]string
	}{
		{"an option", []model.QuestionAnswer{{Selected: []string{"A"}}}, [][]string{{"A"}}},
		{"typed only", []model.QuestionAnswer{{Text: "my own"}}, [][]string{{"my own"}}},
		{"options then text", []model.QuestionAnswer{{Selected: []string{"A", "B"}, Text: "and C"}}, [][]string{{"A", "B", "and C"}}},
		{"one per question", []model.QuestionAnswer{{Selected: []string{"A"}}, {Text: "x"}}, [][]string{{"A"}, {"x"}}},
		{"none", nil, [][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := openCodeAnswers(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
