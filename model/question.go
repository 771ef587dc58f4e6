package model

import (
	"encoding/json"
	"fmt"
	"slices"
)

// KindQuestion is a question the agent puts to the user: text, an optional
// header, options, single or multiple choice, free text allowed or not
// (docs/protocol.md, "Questions").
const KindQuestion = "question"

// Question statuses. A question opens waitingUser (StatusWaitingUser) and
// ends, on item/completed, answered (with its answer) or cancelled.
const (
	StatusAnswered  = "answered"
	StatusCancelled = "cancelled"
)

// Bounds of a question and its answer.
const (
	// MaxQuestionOptions bounds the options one question offers.
	MaxQuestionOptions = 32
	// MaxAnswerTextBytes bounds the free text of an answer.
	MaxAnswerTextBytes = 4096
)

// IsTerminalItemStatus reports whether s ends an item: the common
// terminals, and a question's answered and cancelled.
func IsTerminalItemStatus(s string) bool {
	return IsTerminalStatus(s) || s == StatusAnswered || s == StatusCancelled
}

// QuestionOption is one choice a question offers.
type QuestionOption struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// Question is what a question item asks.
type Question struct {
	Text    string           `json:"text"`
	Header  string           `json:"header,omitempty"`
	Options []QuestionOption `json:"options"`
	// Multiple lets the user pick several options; otherwise at most one.
	Multiple bool `json:"multiple"`
	// FreeText lets the user type an answer of their own.
	FreeText bool `json:"freeText"`
}

// QuestionAnswer is the user's answer to a question: the labels of the
// options picked, in the question's order, and any free text.
type QuestionAnswer struct {
	Selected []string `json:"selected"`
	Text     string   `json:"text,omitempty"`
}

// Equal reports whether two answers say the same thing.
func (a QuestionAnswer) Equal(b QuestionAnswer) bool {
	return a.Text == b.Text && slices.Equal(a.Selected, b.Selected)
}

// QuestionOf reads a question item's question. Members of the wrong type
// read as empty, so an odd item still shows what it can.
func (it *Item) QuestionOf() Question {
	q := Question{Text: it.String("text"), Header: it.String("header")}
	if b, ok := it.boolField("multiple"); ok {
		q.Multiple = b
	}
	if b, ok := it.boolField("freeText"); ok {
		q.FreeText = b
	}
	var opts []json.RawMessage
	if raw := it.Field("options"); raw != nil && json.Unmarshal(raw, &opts) == nil {
		for _, o := range opts {
			var m struct {
				Label       json.RawMessage `json:"label"`
				Description json.RawMessage `json:"description"`
			}
			if json.Unmarshal(o, &m) != nil {
				continue
			}
			q.Options = append(q.Options, QuestionOption{Label: rawString(m.Label), Description: rawString(m.Description)})
		}
	}
	return q
}

// AnswerOf reads a question item's answer, and whether it has one.
func (it *Item) AnswerOf() (QuestionAnswer, bool) {
	raw := it.Field("answer")
	if raw == nil {
		return QuestionAnswer{}, false
	}
	var m struct {
		Selected []json.RawMessage `json:"selected"`
		Text     json.RawMessage   `json:"text"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return QuestionAnswer{}, false
	}
	a := QuestionAnswer{Text: rawString(m.Text)}
	for _, s := range m.Selected {
		a.Selected = append(a.Selected, rawString(s))
	}
	return a, true
}

func (it *Item) boolField(name string) (bool, bool) {
	raw := it.Field(name)
	switch string(raw) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func rawString(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s) // not a string reads as ""
	return s
}

// CheckQuestion reports what is wrong with a question an agent asks, or
// nil: it needs text, options with distinct non-empty labels (at most
// MaxQuestionOptions), and something to answer with (an option or free
// text).
func CheckQuestion(q Question) error {
	if q.Text == "" {
		return fmt.Errorf("a question needs text")
	}
	if len(q.Options) > MaxQuestionOptions {
		return fmt.Errorf("a question offers %d options, at most %d", len(q.Options), MaxQuestionOptions)
	}
	if len(q.Options) == 0 && !q.FreeText {
		return fmt.Errorf("a question needs options or free text")
	}
	seen := make(map[string]bool, len(q.Options))
	for i, o := range q.Options {
		if o.Label == "" {
			return fmt.Errorf("option %d has no label", i+1)
		}
		if seen[o.Label] {
			return fmt.Errorf("option label %q is given twice", o.Label)
		}
		seen[o.Label] = true
	}
	return nil
}

// AnswerProblem names why an answer does not fit its question: the
// data.reason of question/respond's invalid params.
type AnswerProblem string

const (
	AnswerOK            AnswerProblem = ""
	AnswerEmpty         AnswerProblem = "answerEmpty"         // neither an option nor text
	AnswerUnknownOption AnswerProblem = "answerUnknownOption" // a label the question does not offer
	AnswerDuplicate     AnswerProblem = "answerDuplicate"     // a label picked twice
	AnswerTooMany       AnswerProblem = "answerTooMany"       // several picks for a single choice
	AnswerNoFreeText    AnswerProblem = "answerNoFreeText"    // text for a question that takes none
	AnswerTextTooLong   AnswerProblem = "answerTextTooLong"   // text over MaxAnswerTextBytes
)

// CheckAnswer reports whether a fits q, and if not why.
func CheckAnswer(q Question, a QuestionAnswer) AnswerProblem {
	switch {
	case len(a.Selected) == 0 && a.Text == "":
		return AnswerEmpty
	case a.Text != "" && !q.FreeText:
		return AnswerNoFreeText
	case len(a.Text) > MaxAnswerTextBytes:
		return AnswerTextTooLong
	case len(a.Selected) > 1 && !q.Multiple:
		return AnswerTooMany
	}
	seen := make(map[string]bool, len(a.Selected))
	for _, l := range a.Selected {
		if !slices.ContainsFunc(q.Options, func(o QuestionOption) bool { return o.Label == l }) {
			return AnswerUnknownOption
		}
		if seen[l] {
			return AnswerDuplicate
		}
		seen[l] = true
	}
	return AnswerOK
}

// InQuestionOrder returns the answer with its picks in the order the
// question lists them, so that the same picks made in another order are
// the same answer. Labels it does not offer keep their place at the end.
func InQuestionOrder(q Question, a QuestionAnswer) QuestionAnswer {
	rank := make(map[string]int, len(q.Options))
	for i, o := range q.Options {
		rank[o.Label] = i
	}
	sel := slices.Clone(a.Selected)
	slices.SortStableFunc(sel, func(x, y string) int {
		rx, okx := rank[x]
		ry, oky := rank[y]
		switch {
		case okx && oky:
			return rx - ry
		case okx:
			return -1
		case oky:
			return 1
		}
		return 0
	})
	if sel == nil {
		sel = []string{}
	}
	return QuestionAnswer{Selected: sel, Text: a.Text}
}

// WaitingQuestions are the questions of the running turn that still wait
// for their answer, oldest first. Questions wait only while their turn
// runs, and a turn's items are the newest, so it looks back only over the
// active turn's items.
func WaitingQuestions(items []*Item, active *ActiveTurn) []*Item {
	if active == nil {
		return nil
	}
	start := len(items)
	for start > 0 && items[start-1].TurnID == active.TurnID {
		start--
	}
	var out []*Item
	for _, it := range items[start:] {
		if it.Kind == KindQuestion && it.IsOpen() && !it.TerminalUnknown {
			out = append(out, it)
		}
	}
	return out
}
