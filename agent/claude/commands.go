package claude

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/host"
)

// Claude Code runs a slash command that a user message starts with (its
// own, a skill, or the user's custom one); a user message starting with a
// "/word" it does not know goes to the model as text. So an agent
// command's turn sends the line the user typed, and the bridge learns
// which commands exist from Claude Code itself.

// maxCommandDescription bounds a description kept in session state:
// Claude Code's skills describe themselves in paragraphs.
const maxCommandDescription = 200

// Commands offers /compact to new sessions before Claude Code has run
// (host.CommandOfferer); its first process says what else it offers.
func (a *Agent) Commands() []host.AgentCommand {
	return []host.AgentCommand{{Name: "compact", Description: "Claude Code summarises the conversation to free context"}}
}

// initializeCommands reads the commands of Claude Code's answer to the
// initialize control request ({commands: [{name, description,
// argumentHint}]}); nil when it lists none or cannot be read.
func initializeCommands(res json.RawMessage) []host.AgentCommand {
	var r struct {
		Commands []host.AgentCommand `json:"commands"`
	}
	if json.Unmarshal(res, &r) != nil {
		return nil
	}
	out := make([]host.AgentCommand, 0, len(r.Commands))
	for _, c := range r.Commands {
		c.Name = strings.TrimPrefix(c.Name, "/")
		if c.Name == "" {
			continue
		}
		c.Description = child.Cut(c.Description, maxCommandDescription)
		c.ArgumentHint = child.Cut(c.ArgumentHint, maxCommandDescription)
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// initCommands are the names system/init lists (slash_commands), for a
// Claude Code whose initialize answer listed none.
func initCommands(names []string) []host.AgentCommand {
	var out []host.AgentCommand
	for _, n := range names {
		if n = strings.TrimPrefix(n, "/"); n != "" {
			out = append(out, host.AgentCommand{Name: n})
		}
	}
	return out
}

// commandLine is the user message an agent command's turn sends: the
// line the user typed when it names the command, else the bare command.
func commandLine(name, prompt string) string {
	if rest, ok := strings.CutPrefix(prompt, "/"+name); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\t') {
		return prompt
	}
	return "/" + name
}
