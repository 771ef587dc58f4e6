package claudetest

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// playScenario streams the answer for p on s.
func (f *FakeModel) playScenario(s *stream, req Request, p play) {
	u := *f.opts.Usage
	if !s.start(u) {
		return
	}
	stop := "end_turn"
	switch p.name {
	case "side":
		s.text(words("<analysis>The conversation was a test.</analysis>\n<summary>" + SideAnswer + "</summary>")...)
	case "followup":
		if next, ok := nextStep(req, p); ok {
			s.toolUse(next.name, next.input)
			stop = "tool_use"
			break
		}
		s.text(words(followupAnswer(p))...)
	case "run":
		s.text(words(RunPreamble)...)
		s.toolUse("Bash", map[string]any{"command": p.arg, "description": "Run the command the user asked for"})
		stop = "tool_use"
	case "write":
		s.toolUse("Write", map[string]any{"file_path": p.arg, "content": WriteContent})
		stop = "tool_use"
	case "edit":
		s.toolUse("Read", map[string]any{"file_path": p.arg})
		stop = "tool_use"
	case "ask":
		s.toolUse("AskUserQuestion", askInput())
		stop = "tool_use"
	case "plan":
		s.toolUse("TodoWrite", map[string]any{"todos": PlanTodos[0]})
		stop = "tool_use"
	case "slow":
		s.thinking(agenttest.Halves(PlainThinking)...)
		if !s.textBlock(agenttest.NumberedDeltas("slow", f.opts.SlowDeltas), f.opts.SlowInterval) {
			return
		}
	case "long":
		long := agenttest.LongAnswer{Text: f.opts.LongText, Chunk: f.opts.LongChunk, Rate: f.opts.LongRate}
		if !s.textBlockBy(func(emit func(string) bool) bool { return long.Stream(s.SSE, emit) }) {
			return
		}
	case "say":
		s.text(words(p.arg)...)
	default: // plain, and "retry" once it succeeds
		s.thinking(agenttest.Halves(PlainThinking)...)
		s.text(words(PlainAnswer)...)
	}
	s.finish(stop, u)
}

// step is a tool call a scenario makes after an earlier one ran.
type step struct {
	name  string
	input map[string]any
}

// nextStep is the tool call that follows p's tool result, if the
// scenario has one: "edit:" reads the file first, then edits it; "plan
// the work" writes its second todo list after the first.
func nextStep(req Request, p play) (step, bool) {
	if p.tool.Name == "TodoWrite" && !p.result.IsError && scenarioOf(req.LastPrompt()).name == "plan" {
		var in struct {
			Todos []PlanTodo `json:"todos"`
		}
		_ = json.Unmarshal(p.tool.Input, &in)
		if len(in.Todos) == len(PlanTodos[0]) {
			return step{name: "TodoWrite", input: map[string]any{"todos": PlanTodos[1]}}, true
		}
		return step{}, false
	}
	if p.tool.Name != "Read" || p.result.IsError || scenarioOf(req.LastPrompt()).name != "edit" {
		return step{}, false
	}
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(p.tool.Input, &in)
	return step{name: "Edit", input: map[string]any{"file_path": in.FilePath, "old_string": EditOld, "new_string": EditNew}}, true
}

// followupAnswer quotes the tool result the request carries.
func followupAnswer(p play) string {
	out := strings.TrimRight(p.result.Text, "\n")
	switch {
	case p.result.IsError:
		return ToolErrorPrefix + " " + out
	case p.tool.Name == "AskUserQuestion":
		return AskAnswerPrefix + " " + out
	case p.tool.Name == "TodoWrite":
		return PlanAnswer
	case p.tool.Name == "Write" || p.tool.Name == "Edit":
		return EditAnswerPrefix + " " + out
	}
	return CommandAnswerPrefix + "\n\n```\n" + out + "\n```\n"
}

// askInput is the AskUserQuestion input of "ask user".
func askInput() map[string]any {
	opts := []any{
		map[string]any{"label": AskOptions[0], "description": "a server, for many writers"},
		map[string]any{"label": AskOptions[1], "description": "a file, for one writer"},
	}
	return map[string]any{"questions": []any{map[string]any{
		"question": AskQuestion, "header": AskHeader, "options": opts, "multiSelect": false}}}
}
