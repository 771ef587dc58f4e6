package tui

import (
	"encoding/json"
	"strings"

	"github.com/lookout-sh/lookout/internal/fuzzy"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// The slash commands: what a composer line starting with "/" names, and
// the entries the completion list offers. Everything here is pure; the
// keys and the list's picture are in slashmenu.go.

// slashOrigin says whose command an entry is.
type slashOrigin int

const (
	slashLookout slashOrigin = iota // Lookout does it itself (help, export, ...)
	slashAgent                      // the agent runs it (its own commands, and /compact)
)

// Names of Lookout's own commands.
const (
	slashHelp     = "help"
	slashStatus   = "status"
	slashNew      = "new"
	slashSessions = "sessions"
	slashExport   = "export"
	slashCompact  = "compact" // Lookout's name for the agent's compaction
)

// slashEntry is one command of the completion list.
type slashEntry struct {
	name        string // without the slash
	description string // one line, sanitised
	origin      slashOrigin
}

// lookoutCommands are Lookout's own entries, in list order. /compact is
// listed whichever agent runs, and runs only where the agent offers it.
func lookoutCommands() []slashEntry {
	return []slashEntry{
		{slashHelp, "every key", slashLookout},
		{slashStatus, "the session's agent, model, directory and usage", slashLookout},
		{slashNew, "a new session of the same agent", slashLookout},
		{slashSessions, "choose another session", slashLookout},
		{slashExport, "write the transcript to a markdown file", slashLookout},
		{slashCompact, "summarise the conversation to free context (the agent's own)", slashAgent},
	}
}

// maxSlashDescription bounds an agent's description in the list (Claude
// Code's skills describe themselves in paragraphs).
const maxSlashDescription = 200

// agentCommand is one of the session's "commands" state values.
type agentCommand struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// agentCommands are the commands the session's agent offers, by its
// "commands" state value; known is false while the session has none (the
// agent has not said yet, or the host is older).
func agentCommands(v *model.View) (cmds []agentCommand, known bool) {
	if v == nil || v.Values["commands"] == nil {
		return nil, false
	}
	if json.Unmarshal(v.Values["commands"], &cmds) != nil {
		return nil, false
	}
	return cmds, true
}

// slashEntries is the completion list: Lookout's own, then the agent's
// that Lookout does not name, each name a valid command name and each
// description one sanitised line. The agent's names and descriptions come
// from its program: they pass termtext.Line before the terminal.
func slashEntries(agent []agentCommand) []slashEntry {
	out := lookoutCommands()
	seen := make(map[string]bool, len(out)+len(agent))
	for _, e := range out {
		seen[e.name] = true
	}
	for _, c := range agent {
		if !validSlashName(c.Name) || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		desc := termtext.Line(c.Description)
		if len(desc) > maxSlashDescription {
			desc = cutToRunes(desc, maxSlashDescription) + "…"
		}
		out = append(out, slashEntry{name: c.Name, description: desc, origin: slashAgent})
	}
	return out
}

// cutToRunes cuts s to at most n bytes on a rune boundary.
func cutToRunes(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// validSlashName reports whether name can be a command name: 1 to 64
// ASCII letters, digits and "-_:." (the host's rule for agentCommand).
func validSlashName(name string) bool {
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

// slashQuery is what the completion list filters by: the name being typed
// after a "/" that starts the composer, while nothing else was typed (no
// space, no newline). ok is false for any other text ("/etc/hosts is"
// is a prompt, not a command being typed).
func slashQuery(text string) (query string, ok bool) {
	rest, found := strings.CutPrefix(text, "/")
	if !found || (rest != "" && !validSlashName(rest)) {
		return "", false
	}
	return rest, true
}

// filterSlash is the entries matching query, best first (internal/fuzzy);
// an empty query lists every entry in order.
func filterSlash(entries []slashEntry, query string) []slashEntry {
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.name
	}
	ranked := fuzzy.Rank(query, names)
	out := make([]slashEntry, len(ranked))
	for i, m := range ranked {
		out[i] = entries[m.Index]
	}
	return out
}

// slashAction is what sending a composer line does.
type slashAction int

const (
	slashPrompt     slashAction = iota // not a command: send it as a prompt
	slashRunLookout                    // Lookout's own command: do it here
	slashRunAgent                      // the agent's command: submit it as one (never as a prompt)
	slashNotOffered                    // a command this session's agent (or host) does not run: say so, send nothing
	slashUnknown                       // nobody's command: ask before sending it as text
)

// slashLine is the decision about one composer line.
type slashLine struct {
	action slashAction
	name   string // the command named, without the slash
	args   string // what follows it, trimmed
}

// slashContext is what the decision depends on besides the line.
type slashContext struct {
	agent      []agentCommand // the agent's commands (agentCommands)
	agentKnown bool           // the session says which commands its agent offers
	hostRuns   bool           // the host runs agent commands (features.agentCommands)
}

// decideSlash says what sending line does. A line is a command when it
// starts with "/" followed at once by a valid name, then the end, a space
// or a newline; anything else ("/", "/etc/hosts", " /help") is a prompt.
// Lookout's own commands run here; /compact and the agent's own run as
// agent commands when the host runs them and the agent offers them, else
// they are refused; any other name is unknown.
func decideSlash(line string, c slashContext) slashLine {
	rest, ok := strings.CutPrefix(line, "/")
	if !ok {
		return slashLine{action: slashPrompt}
	}
	name, args := rest, ""
	if i := strings.IndexAny(rest, " \t\n"); i >= 0 {
		name, args = rest[:i], strings.TrimSpace(rest[i+1:])
	}
	if !validSlashName(name) {
		return slashLine{action: slashPrompt}
	}
	d := slashLine{name: name, args: args}
	offered := false
	for _, a := range c.agent {
		offered = offered || a.Name == name
	}
	switch {
	case name == slashCompact:
		d.action = slashNotOffered
		if offered && c.hostRuns {
			d.action = slashRunAgent
		}
	case isLookoutCommand(name):
		d.action = slashRunLookout
	case offered && c.hostRuns:
		d.action = slashRunAgent
	case offered:
		d.action = slashNotOffered
	default:
		d.action = slashUnknown
	}
	return d
}

func isLookoutCommand(name string) bool {
	for _, e := range lookoutCommands() {
		if e.name == name && e.origin == slashLookout {
			return true
		}
	}
	return false
}

// notOfferedWhy says why a command is not run: the host cannot run
// agent commands, the agent has not said what it offers yet, or it does
// not offer this one.
func notOfferedWhy(name, agentName string, c slashContext) string {
	if agentName == "" {
		agentName = "this session's agent"
	}
	switch {
	case !c.hostRuns:
		return "/" + name + " not sent: this host cannot run agent commands"
	case !c.agentKnown:
		return "/" + name + " not sent: " + agentName + " has not said which commands it offers yet (after its first turn it will)"
	}
	return "/" + name + " not sent: " + agentName + " does not offer it"
}
