package tui

import (
	"slices"
	"unicode/utf8"

	"github.com/lookout-sh/lookout/model"
)

// questionInput is the answer being made to one waiting question: which
// row the cursor is on (an option, or the text line after them when the
// question takes free text), what is picked and what is typed. It is a
// value: questionStep returns the next one.
type questionInput struct {
	id     string // the question item it answers
	cursor int
	picked []bool
	text   string
}

// questionAction is what a key on the question card asks the model to do.
type questionAction int

const (
	questionStay    questionAction = iota // the input changed (or not); keep the keys
	questionSend                          // send the answer the input makes
	questionRelease                       // esc: the question waits, the keys go back
	questionEmpty                         // enter with nothing picked or typed
)

func newQuestionInput(id string, q model.Question) questionInput {
	return questionInput{id: id, picked: make([]bool, len(q.Options))}
}

// onText reports whether the cursor is on the free text line.
func (in questionInput) onText(q model.Question) bool {
	return q.FreeText && in.cursor == len(q.Options)
}

// rows is how many rows the cursor moves over.
func questionRows(q model.Question) int {
	if q.FreeText {
		return len(q.Options) + 1
	}
	return len(q.Options)
}

// pick picks option i: alone for a single choice, toggled for a multiple.
func (in questionInput) pick(q model.Question, i int) questionInput {
	p := slices.Clone(in.picked)
	if q.Multiple {
		p[i] = !p[i]
	} else {
		was := p[i]
		clear(p)
		p[i] = !was
	}
	in.picked, in.cursor = p, i
	return in
}

// questionStep is the pure decision for one key on the question card:
// digits pick an option (toggle for multiple choice), up/down move, space
// picks the option under the cursor (on the text line it is a space),
// typing goes to the text line when the question takes free text, enter
// sends, esc lets the question wait.
func questionStep(q model.Question, in questionInput, key, text string) (questionInput, questionAction) {
	switch key {
	case "esc":
		return in, questionRelease
	case "enter":
		if !in.answer(q).IsSome() && !in.onText(q) && in.cursor < len(q.Options) && !q.Multiple {
			in = in.pick(q, in.cursor) // enter on an option of a single choice picks it
		}
		if !in.answer(q).IsSome() {
			return in, questionEmpty
		}
		return in, questionSend
	case "up", "shift+tab":
		in.cursor = max(in.cursor-1, 0)
		return in, questionStay
	case "down", "tab":
		in.cursor = min(in.cursor+1, questionRows(q)-1)
		return in, questionStay
	case "backspace":
		if in.onText(q) {
			if _, n := utf8.DecodeLastRuneInString(in.text); n > 0 {
				in.text = in.text[:len(in.text)-n]
			}
		}
		return in, questionStay
	case "ctrl+u":
		if in.onText(q) {
			in.text = ""
		}
		return in, questionStay
	}
	if in.onText(q) {
		if key == "space" {
			text = " "
		}
		if text != "" && len(in.text)+len(text) <= model.MaxAnswerTextBytes {
			in.text += oneLine(text)
		}
		return in, questionStay
	}
	if len(key) == 1 && key[0] >= '1' && key[0] <= '9' {
		if i := int(key[0] - '1'); i < len(q.Options) {
			return in.pick(q, i), questionStay
		}
		return in, questionStay
	}
	if key == "space" && in.cursor < len(q.Options) {
		return in.pick(q, in.cursor), questionStay
	}
	if text != "" && q.FreeText {
		// Typing on an option starts the free text answer.
		in.cursor = len(q.Options)
		in.text += oneLine(text)
	}
	return in, questionStay
}

// answer is the answer the input makes: the picks in the question's
// order and the text typed.
func (in questionInput) answer(q model.Question) answerDraft {
	sel := []string{}
	for i, p := range in.picked {
		if p && i < len(q.Options) {
			sel = append(sel, q.Options[i].Label)
		}
	}
	text := ""
	if q.FreeText {
		text = in.text
	}
	return answerDraft{model.QuestionAnswer{Selected: sel, Text: text}}
}

// answerDraft is an answer not sent yet.
type answerDraft struct{ model.QuestionAnswer }

// IsSome reports whether the draft says anything.
func (d answerDraft) IsSome() bool { return len(d.Selected) > 0 || d.Text != "" }

// waitingQuestion is the oldest question of the running turn that still
// waits, or nil.
func waitingQuestion(v *model.View) *model.Item {
	if v == nil {
		return nil
	}
	if qs := model.WaitingQuestions(v.Items, v.ActiveTurn); len(qs) > 0 {
		return qs[0]
	}
	return nil
}
