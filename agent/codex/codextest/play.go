package codextest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/agent/agenttest"
)

// playScenario streams the answer for p on s. failing is true for an
// attempt of "disconnect" that must break off.
func (f *FakeModel) playScenario(s *stream, req Request, p play, failing bool) {
	if !s.created() {
		return
	}
	switch p.name {
	case "side":
		s.text(words(SideAnswer)...)
	case "title":
		s.text(`{"title":"` + Title + `"}`)
	case "followup":
		if next, ok := nextPlan(req); ok {
			s.functionCall("update_plan", map[string]any{"plan": next})
			break
		}
		s.text(words(followupAnswer(req))...)
	case "plan":
		s.reasoning("I will plan ", "the work.")
		s.functionCall("update_plan", map[string]any{"explanation": PlanExplanation, "plan": PlanSteps[0]})
	case "model error":
		s.failed("server_error", "fake model error")
		return
	case "disconnect":
		s.reasoning(agenttest.Halves(PlainReasoning)...)
		d := words(PlainAnswer)
		if failing {
			// Half the answer, then end the body without completing the
			// item or the response: Codex sees the stream close early.
			id := s.itemID("msg", s.next)
			s.Event("response.output_item.added", map[string]any{"output_index": s.next,
				"item": map[string]any{"type": "message", "id": id, "role": "assistant", "content": []any{}}})
			for _, x := range d[:len(d)/2] {
				s.Event("response.output_text.delta", map[string]any{"item_id": id, "output_index": s.next, "content_index": 0, "delta": x})
			}
			return
		}
		s.text(d...)
	case "run sandboxed", "run", "run command":
		cmd := p.arg
		if p.name == "run command" || cmd == "" {
			cmd = DefaultCommand
		}
		args := map[string]any{"cmd": cmd, "tty": false, "yield_time_ms": 2000}
		if p.name != "run sandboxed" {
			args["sandbox_permissions"] = "require_escalated"
			args["justification"] = CommandJustification
		}
		s.reasoning("I will run ", "the command.")
		s.functionCall("exec_command", args)
	case "patch", "patch file", "patch update":
		file := p.arg
		if file == "" {
			file = DefaultPatchFile
		}
		s.reasoning("I will edit ", "the file with apply_patch.")
		s.functionCall("exec_command", map[string]any{"cmd": "apply_patch <<'EOF'\n" + patchText(p.name == "patch update", file) + "EOF\n"})
	case "ask":
		s.reasoning("I will ask ", "the user.")
		s.functionCall("request_user_input", askInput())
	case "slow":
		s.reasoning(agenttest.Halves("Streaming slowly.")...)
		s.message(agenttest.NumberedDeltas("slow", f.opts.SlowDeltas), f.opts.SlowInterval)
	case "long":
		long := agenttest.LongAnswer{Text: f.opts.LongText, Chunk: f.opts.LongChunk, Rate: f.opts.LongRate}
		s.messageBy(func(emit func(string) bool) bool { return long.Stream(s.SSE, emit) })
	case "say":
		s.text(words(p.arg)...)
	case "many":
		n, _ := strconv.Atoi(strings.TrimSpace(p.arg))
		for i := range min(max(n, 1), MaxMany) {
			if !s.text(fmt.Sprintf("message %d of %d", i+1, n)) {
				return
			}
		}
	default: // plain, retry after its failures
		s.reasoning(agenttest.Halves(PlainReasoning)...)
		s.text(words(PlainAnswer)...)
	}
	s.completed(*f.opts.Usage)
}

// askInput is the request_user_input arguments of "ask user".
func askInput() map[string]any {
	opts := []any{
		map[string]any{"label": AskOptions[0], "description": "a server, for many writers"},
		map[string]any{"label": AskOptions[1], "description": "a file, for one writer"},
	}
	return map[string]any{"questions": []any{map[string]any{"id": AskQuestionID, "header": AskHeader, "question": AskQuestion, "options": opts}}}
}

// patchText is an apply_patch document adding file (holding PatchLine) or
// updating that line.
func patchText(update bool, file string) string {
	if update {
		return "*** Begin Patch\n*** Update File: " + file + "\n@@\n-" + PatchLine + "\n+" + PatchUpdatedLine + "\n*** End Patch\n"
	}
	return "*** Begin Patch\n*** Add File: " + file + "\n+" + PatchLine + "\n*** End Patch\n"
}

// lastCall is the function call whose output ends req's input.
func lastCall(req Request) (InputItem, bool) {
	last, ok := toolOutput(req)
	if !ok {
		return InputItem{}, false
	}
	for _, it := range req.Input {
		if it.Type == "function_call" && it.CallID == last.CallID {
			return it, true
		}
	}
	return InputItem{}, false
}

// nextPlan is the plan "plan the work" gives after its first one ran.
func nextPlan(req Request) ([]PlanStep, bool) {
	call, ok := lastCall(req)
	if !ok || call.Name != "update_plan" {
		return nil, false
	}
	var a struct {
		Plan []PlanStep `json:"plan"`
	}
	if json.Unmarshal([]byte(call.Arguments), &a) != nil || len(a.Plan) != len(PlanSteps[0]) {
		return nil, false
	}
	return PlanSteps[1], true
}

// followupAnswer quotes the output of the tool call that ended req's
// input: the text after Codex's last "Output:" line, or all of it; after
// update_plan, PlanAnswer.
func followupAnswer(req Request) string {
	last, _ := toolOutput(req)
	if call, ok := lastCall(req); ok && call.Name == "update_plan" {
		return PlanAnswer
	}
	prefix := CommandAnswerPrefix
	for _, it := range req.Input {
		if it.Type == "function_call" && it.CallID == last.CallID && it.Name == "request_user_input" {
			return AskAnswerPrefix + "\n\n```\n" + strings.TrimRight(last.Output, "\n") + "\n```\n"
		}
		if it.Type == "function_call" && it.CallID == last.CallID {
			var a struct {
				Cmd string `json:"cmd"`
			}
			if json.Unmarshal([]byte(it.Arguments), &a) == nil && strings.HasPrefix(strings.TrimSpace(a.Cmd), "apply_patch") {
				prefix = PatchAnswerPrefix
			}
		}
	}
	out := last.Output
	if i := strings.LastIndex(out, "Output:\n"); i >= 0 {
		out = out[i+len("Output:\n"):]
	}
	out = strings.TrimRight(out, "\n")
	return prefix + "\n\n```\n" + out + "\n```\n"
}

// words cuts s after each space or newline, so the pieces join back to s.
func words(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexAny(s, " \n")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
