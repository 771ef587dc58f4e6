package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is one running Claude Code (`claude -p` in stream-json mode)
// serving one Lookout session: a user message per turn on its stdin, its
// events on its stdout. It stays up between turns.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	conn   *conn
	stderr *tailBuffer

	exited  chan struct{} // closed once the child has been waited for
	exitErr error         // the child's exit status; read after exited
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
	cmd := exec.Command(opts.Bin, args...)
	cmd.Dir = dir
	cmd.Env = childEnv(opts)
	cmd.SysProcAttr = childSysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, stderr: &tailBuffer{max: 4 << 10}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", opts.Bin, err)
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	p.conn = newConn(stdout, stdin)
	ictx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	if _, err = p.conn.request(ictx, "initialize", nil); err != nil {
		p.kill()
		why := p.startupErrors()
		if strings.Contains(why, "No conversation found") {
			return nil, fmt.Errorf("%w: %s", errNoConversation, why)
		}
		if why == "" {
			why = p.exitReason()
		} else {
			why = ": " + why
		}
		return nil, fmt.Errorf("claude code did not start: %v%s", err, why)
	}
	return p, nil
}

// startupErrors collects what Claude Code said before it stopped during
// startup: the errors of a result it sent, else its last stderr line.
func (p *process) startupErrors() string {
	var errs []string
	select {
	case <-p.conn.done: // everything it wrote is queued
	case <-time.After(time.Second):
	}
	for m := p.conn.next(); m != nil; m = p.conn.next() {
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
		return cut(strings.Join(errs, "; "), 300)
	}
	return strings.TrimPrefix(p.stderrNote(), ": ")
}

// childEnv is Claude Code's environment: the configured one (the user's
// own by default) without Lookout's variables, with CLAUDE_CONFIG_DIR when
// Options.ConfigDir names one.
func childEnv(opts Options) []string {
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+1)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LOOKOUT_") || (opts.ConfigDir != "" && name == "CLAUDE_CONFIG_DIR") {
			continue
		}
		env = append(env, kv)
	}
	if opts.ConfigDir != "" {
		env = append(env, "CLAUDE_CONFIG_DIR="+opts.ConfigDir)
	}
	return env
}

// kill ends the child and its process group at once and waits for it.
func (p *process) kill() {
	if p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
	}
	p.stdin.Close()
	<-p.exited
}

// stop asks the child to end by closing its stdin (Claude Code exits when
// its input ends), then kills its group after grace.
func (p *process) stop(grace time.Duration) {
	p.stdin.Close()
	select {
	case <-p.exited:
		// Claude Code is gone; its group may still hold helpers.
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	case <-time.After(grace):
		p.kill()
	}
}

// exitReason describes how the child ended, waiting briefly for its exit
// status after its output closed.
func (p *process) exitReason() string {
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return "its output closed" + p.stderrNote()
	}
	var ee *exec.ExitError
	switch {
	case p.exitErr == nil:
		return "it exited" + p.stderrNote()
	case errors.As(p.exitErr, &ee):
		return "it ended (" + ee.ProcessState.String() + ")" + p.stderrNote()
	}
	return p.exitErr.Error() + p.stderrNote()
}

func (p *process) stderrNote() string {
	s := strings.TrimSpace(p.stderr.String())
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + cut(s, 300)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
