package tui

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// questionState is what the UI keeps about the questions it shows: the
// answer being made, the questions the user let wait (esc), and those it
// sent an answer to (the host has not ended them yet).
type questionState struct {
	in       questionInput
	released map[string]bool
	sent     map[string]bool
}

// currentQuestion is the waiting question the card shows, or nil: the
// oldest question of the running turn this client has not answered.
func (m *Model) currentQuestion() *model.Item {
	it := waitingQuestion(m.view)
	if it == nil || m.qs.sent[it.ID] {
		return nil
	}
	return it
}

// questionHasKeys is the question that takes the keyboard now, or nil: a
// current question the user did not let wait, with no overlay open.
func (m *Model) questionHasKeys() *model.Item {
	it := m.currentQuestion()
	if it == nil || m.qs.released[it.ID] || m.overlay != overlayNone {
		return nil
	}
	return it
}

// questionKey hands a key to the question card and does what it decides.
func (m *Model) questionKey(it *model.Item, msg tea.KeyPressMsg) tea.Cmd {
	q := it.QuestionOf()
	if m.qs.in.id != it.ID {
		m.qs.in = newQuestionInput(it.ID, q)
	}
	text := ""
	if msg.Mod&^tea.ModShift == 0 {
		text = msg.Text
	}
	in, act := questionStep(q, m.qs.in, msg.String(), text)
	m.qs.in = in
	switch act {
	case questionRelease:
		if m.qs.released == nil {
			m.qs.released = map[string]bool{}
		}
		m.qs.released[it.ID] = true
		m.setNotice("the question still waits · "+bindingKeys(m.km.Global.Question)+" answers it", false)
		return m.expireNotice()
	case questionEmpty:
		m.setNotice("pick an option or type an answer first", true)
		return m.expireNotice()
	case questionSend:
		ans := in.answer(q).QuestionAnswer
		if m.qs.sent == nil {
			m.qs.sent = map[string]bool{}
		}
		m.qs.sent[it.ID] = true
		m.setNotice("answered: "+render.QuestionAnswerText(ans), false)
		id := it.ID
		return tea.Batch(call(func() { m.src.AnswerQuestion(id, ans) }), m.expireNotice())
	}
	return nil
}

// reopenQuestion gives the keyboard back to a question the user let wait.
func (m *Model) reopenQuestion() tea.Cmd {
	it := m.currentQuestion()
	if it == nil {
		m.setNotice("no question is waiting", true)
		return m.expireNotice()
	}
	delete(m.qs.released, it.ID)
	return nil
}

// questionLines draws the card of the current question above the
// composer: the question, its options (a cursor, and what is picked), the
// free text line and the keys; or, while the user lets it wait, one line
// saying it waits. Every text is the agent's, so it goes through termtext.
func questionLines(t themes.Theme, it *model.Item, in questionInput, hasKeys bool, reopen string, width int) []string {
	q := it.QuestionOf()
	head := "? " + termtext.Line(q.Text)
	if h := termtext.Line(q.Header); h != "" {
		head = "? " + h + " · " + termtext.Line(q.Text)
	}
	if !hasKeys {
		return []string{fit(t.Warning.Render(clampLine(head, width-len(reopen)-4))+t.Muted.Render(" · "+reopen+" answers"), width)}
	}
	if in.id != it.ID {
		in = newQuestionInput(it.ID, q)
	}
	var out []string
	for i, l := range wrapLines(head, width-1) {
		if i == 3 {
			break
		}
		out = append(out, fit(" "+t.Warning.Bold(true).Render(l), width))
	}
	for i, o := range q.Options {
		box := "( )"
		if q.Multiple {
			box = "[ ]"
		}
		if i < len(in.picked) && in.picked[i] {
			box = "(•)"
			if q.Multiple {
				box = "[x]"
			}
		}
		cursor := "  "
		style := t.Text
		if in.cursor == i {
			cursor, style = "› ", t.Accent.Bold(true)
		}
		line := cursor + itoa(i+1) + ". " + box + " " + termtext.Line(o.Label)
		if d := termtext.Line(o.Description); d != "" {
			line += " — " + d
		}
		out = append(out, fit(" "+style.Render(clampLine(line, width-1)), width))
	}
	if q.FreeText {
		cursor, style := "  ", t.Muted
		if in.onText(q) {
			cursor, style = "› ", t.Accent.Bold(true)
		}
		shown := termtext.Line(in.text)
		if in.onText(q) {
			shown += "▏"
		}
		label := "your own answer: "
		out = append(out, fit(" "+style.Render(clampLine(cursor+label+tailFit(shown, width-len(label)-4), width-1)), width))
	}
	pick := "1-9 pick"
	if q.Multiple {
		pick = "1-9/space toggle"
	}
	hints := []string{pick, "↑/↓ move", "enter sends", "esc later"}
	for _, l := range packHints(hints, "  ", " · ", width) {
		out = append(out, fit(t.Muted.Render(l), width))
	}
	return out
}

// clampLine cuts plain text to width cells with an ellipsis.
func clampLine(s string, width int) string {
	if width < 1 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}

// wrapLines word-wraps plain text to width cells.
func wrapLines(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, max(width, 1), ""), "\n")
}

// tailFit keeps the end of plain text within width cells (where the
// typing is), marking a cut start with an ellipsis.
func tailFit(s string, width int) string {
	width = max(width, 2)
	for ansi.StringWidth(s) > width {
		_, n := utf8.DecodeRuneInString(strings.TrimPrefix(s, "…"))
		s = "…" + strings.TrimPrefix(s, "…")[n:]
	}
	return s
}
