package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
	"github.com/lookout-sh/lookout/host"
)

// process is one running Claude Code (`claude -p` in stream-json mode)
// serving one Lookout session: a user message per turn on its stdin, its
// events on its stdout. It stays up between turns.
type process struct {
	*child.Process
	conn *conn
	// commands are what the initialize answer listed (nil: none).
	commands []host.AgentCommand
}

// startupTimeout bounds starting Claude Code and its initialize answer.
const startupTimeout = 30 * time.Second

// baseArgs run Claude Code headless: stream-json both ways, partial
// messages (the model's deltas), and permission prompts sent to the host
// as control requests.
var baseArgs = []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
	"--include-partial-messages", "--permission-prompt-tool", "stdio"}

// errNoConversation is returned by startProcess when Claude Code has no
// session to resume by the given id.
var errNoConversation = errors.New("claude code has no such conversation")

// startProcess runs Claude Code in dir, resuming the session resumeID when
// it is not "", and completes the initialize handshake. The child gets its
// own process group and, where the system has one, a parent-death signal,
// so it never outlives the host.
func startProcess(ctx context.Context, opts Options, dir, resumeID string) (*process, error) {
	args := append([]string(nil), baseArgs...)
	if resumeID != "" {
		args = append(args, "--resume", resumeID)
	}
	cp, err := child.Start(child.Command{Bin: opts.Bin, Args: args, Dir: dir, Env: childEnv(opts)})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", opts.Bin, err)
	}
	p := &process{Process: cp, conn: newConn(cp.Stdout(), cp.Stdin())}
	ictx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	res, err := p.conn.request(ictx, "initialize", nil)
	if err != nil {
		p.Kill()
		why := p.startupErrors()
		if strings.Contains(why, "No conversation found") {
			return nil, fmt.Errorf("%w: %s", errNoConversation, why)
		}
		if why == "" {
			why = p.ExitReason()
		} else {
			why = ": " + why
		}
		return nil, fmt.Errorf("claude code did not start: %w%s", err, why)
	}
	p.commands = initializeCommands(res)
	return p, nil
}

// startupErrors collects what Claude Code said before it stopped during
// startup: the errors of a result it sent, else its last stderr line.
func (p *process) startupErrors() string {
	var errs []string
	select {
	case <-p.conn.Queue.Done(): // everything it wrote is queued
	case <-time.After(time.Second):
	}
	for m, ok := p.conn.Queue.Next(); ok; m, ok = p.conn.Queue.Next() {
		if m.Type != "result" {
			continue
		}
		var r struct {
			Errors []string `json:"errors"`
			Result string   `json:"result"`
		}
		if json.Unmarshal(m.Raw, &r) == nil {
			errs = append(errs, r.Errors...)
			if r.Result != "" {
				errs = append(errs, r.Result)
			}
		}
	}
	if len(errs) > 0 {
		return child.Cut(strings.Join(errs, "; "), 300)
	}
	return strings.TrimPrefix(p.StderrNote(), ": ")
}

// childEnv is Claude Code's environment: the configured one (the user's
// own by default) without Lookout's variables, with CLAUDE_CONFIG_DIR when
// Options.ConfigDir names one, and TodoWrite turned on (withTodoWrite).
func childEnv(opts Options) []string {
	return withTodoWrite(child.Env(opts.Env, map[string]string{"CLAUDE_CONFIG_DIR": opts.ConfigDir}))
}
