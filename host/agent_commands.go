package host

import (
	"encoding/json"
	"slices"
)

// StateCommands is the session/state key holding the commands the
// session's agent offers besides prompts: a JSON array of AgentCommand.
const StateCommands = "commands"

// AgentCommand is one command an agent offers besides prompts, such as
// "compact". Name has no leading slash.
type AgentCommand struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// ArgumentHint says what may follow the name ("[instructions]").
	ArgumentHint string `json:"argumentHint,omitempty"`
}

// CommandOfferer is implemented by agents that offer commands before
// their program has run: the host puts Commands into a new session's
// state (StateCommands). A bridge that learns more later (from its
// program) replaces the value with Session.SetCommands.
type CommandOfferer interface {
	Commands() []AgentCommand
}

// SetCommands replaces the commands the session's agent offers
// (StateCommands), unless they are the ones it already holds.
func (s Session) SetCommands(cmds []AgentCommand) error {
	if cmds == nil {
		cmds = []AgentCommand{}
	}
	if slices.Equal(s.Commands(), cmds) {
		return nil
	}
	return s.SetState(map[string]any{StateCommands: cmds})
}

// Commands is what the session's state says its agent offers (nil when
// it says nothing or cannot be read).
func (s Session) Commands() []AgentCommand {
	return parseCommands(s.Value(StateCommands))
}

func parseCommands(raw json.RawMessage) []AgentCommand {
	if len(raw) == 0 {
		return nil
	}
	var cmds []AgentCommand
	if json.Unmarshal(raw, &cmds) != nil {
		return nil
	}
	return cmds
}

// offersLocked reports whether the session's agent offers the command
// name, by the session's state.
func (s *session) offersLocked(name string) bool {
	return slices.ContainsFunc(parseCommands(s.state.Value(StateCommands)), func(c AgentCommand) bool { return c.Name == name })
}

// validCommandName reports whether name can name an agent command on the
// wire: 1 to 64 bytes of ASCII letters, digits and "-_:." (Claude Code's
// plugin commands are "plugin:name").
func validCommandName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == ':' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}
