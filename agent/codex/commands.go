package codex

import (
	"errors"

	"github.com/lookout-sh/lookout/host"
)

// commandCompact is Codex's compaction, run by thread/compact/start: a
// turn of its own with a contextCompaction item and no userMessage.
const commandCompact = "compact"

// commands are the agent commands the bridge runs for Codex. Codex's
// app-server lists none of its TUI's slash commands; each one here is
// mapped onto the app-server call that does it.
func commands() []host.AgentCommand {
	return []host.AgentCommand{{Name: commandCompact,
		Description: "Codex summarises the conversation to free context (thread/compact/start)"}}
}

// Commands offers Codex's commands to new sessions (host.CommandOfferer).
func (a *Agent) Commands() []host.AgentCommand { return commands() }

// errNoSuchCommand fails a turn naming a command the bridge does not map.
var errNoSuchCommand = errors.New("the Codex bridge does not run this command")

// commandCall is the app-server request that runs the agent command name
// in thread, and its params.
func commandCall(name, thread string) (method string, params map[string]any, err error) {
	switch name {
	case commandCompact:
		return "thread/compact/start", map[string]any{"threadId": thread}, nil
	}
	return "", nil, errNoSuchCommand
}
