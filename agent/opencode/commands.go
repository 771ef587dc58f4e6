package opencode

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/agent/bridge"
	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/host"
)

// commandCompact is OpenCode's compaction: POST /session/{id}/summarize.
// OpenCode's other commands (GET /command: its own, MCP prompts, skills,
// the user's) run with POST /session/{id}/command.
const commandCompact = "compact"

// maxCommandDescription bounds a description kept in session state.
const maxCommandDescription = 200

func compactCommand() host.AgentCommand {
	return host.AgentCommand{Name: commandCompact, Description: "OpenCode summarises the session to free context"}
}

// Commands offers /compact to new sessions before the server has run
// (host.CommandOfferer); the server's command list joins it on the first
// turn.
func (a *Agent) Commands() []host.AgentCommand { return []host.AgentCommand{compactCommand()} }

// ocCommand is one entry of GET /command.
type ocCommand struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Hints       []string `json:"hints"`
}

// commandList is the session's commands: /compact, then OpenCode's own
// in its order (one named compact is OpenCode's summarize already).
func commandList(oc []ocCommand) []host.AgentCommand {
	out := []host.AgentCommand{compactCommand()}
	for _, c := range oc {
		if c.Name == "" || c.Name == commandCompact {
			continue
		}
		out = append(out, host.AgentCommand{Name: c.Name, Description: child.Cut(c.Description, maxCommandDescription),
			ArgumentHint: child.Cut(strings.Join(c.Hints, " "), maxCommandDescription)})
	}
	return out
}

// readCommandsOnce reads, on a goroutine of its own, the server's command
// list into the session's state, once per server the session is opened
// on: no turn waits for it, and a new server (a restart) may offer others.
func (s *session) readCommandsOnce(srv *server) {
	s.mu.Lock()
	first := s.cmdsOn != srv
	s.cmdsOn = srv
	dir := s.dir
	s.mu.Unlock()
	if first {
		go s.readCommands(srv, dir)
	}
}

// readCommands reads the server's command list for dir into the session's
// state; a failure leaves the state as it was (OpenCode still checks the
// commands a turn runs). The server's end ends the request.
func (s *session) readCommands(srv *server, dir string) {
	cctx, cancel := context.WithTimeout(srv.ctx, 5*time.Second)
	defer cancel()
	var oc []ocCommand
	if err := srv.c.do(cctx, "GET", "/command", dir, nil, &oc); err != nil {
		s.a.log.Warn("opencode commands not read", "session", s.sess.ID(), "err", err)
		return
	}
	_ = s.sess.SetCommands(commandList(oc))
}

// commandArgs is what follows the command's name in the line typed.
func commandArgs(name, prompt string) string {
	rest, _ := strings.CutPrefix(prompt, "/"+name)
	return strings.TrimSpace(rest)
}

// commandRequest is the OpenCode request that runs the agent command name
// in session id: summarize for compact (with the session's model, which
// OpenCode requires), POST /command for the others.
func commandRequest(name, prompt, id, sessionModel string) (path string, body map[string]any, err error) {
	if name == commandCompact {
		provider, modelID, ok := strings.Cut(sessionModel, "/")
		if !ok || provider == "" || modelID == "" {
			return "", nil, errNoModel
		}
		return "/session/" + url.PathEscape(id) + "/summarize", map[string]any{"providerID": provider, "modelID": modelID}, nil
	}
	return "/session/" + url.PathEscape(id) + "/command", map[string]any{"command": name, "arguments": commandArgs(name, prompt)}, nil
}

// errNoModel: summarize needs the model, which neither the session nor
// OpenCode's configuration names.
var errNoModel = errors.New("OpenCode names no model for this session to summarise with")

// sendCommand starts the agent command's request. OpenCode answers it
// only once the command has run, so it runs on its own goroutine: the
// turn's events arrive on the event stream as for a prompt, and a refusal
// ends the turn.
func (d openCodeTurn) sendCommand(name string) error {
	ts, srv := d.ts, d.ts.srv
	m := bridge.JSONString(ts.s.sess.Value(stateModel))
	if m == "" {
		m = srv.configModel(d.dir)
	}
	path, body, err := commandRequest(name, ts.t.Prompt(), d.id, m)
	if err != nil {
		return err
	}
	go func() {
		if err := srv.c.do(srv.ctx, "POST", path, d.dir, body, nil); err != nil && ts.ctx.Err() == nil {
			ts.finish(&host.TurnFailure{Code: "agentError", Message: "OpenCode did not run /" + name + ": " + err.Error()})
		}
	}()
	return nil
}

// configModel is the model of OpenCode's configuration ("provider/model"),
// "" when it names none or cannot be read.
func (srv *server) configModel(dir string) string {
	ctx, cancel := context.WithTimeout(srv.ctx, 5*time.Second)
	defer cancel()
	var cfg struct {
		Model string `json:"model"`
	}
	if srv.c.do(ctx, "GET", "/config", dir, nil, &cfg) != nil {
		return ""
	}
	return cfg.Model
}
