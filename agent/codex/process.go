package codex

import (
	"context"
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

// process is one running `codex app-server` child speaking JSON-RPC over
// its stdin and stdout.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	conn   *rpcConn
	stderr *tailBuffer

	exited  chan struct{} // closed once the child has been waited for
	exitErr error         // the child's exit status; read after exited
}

// startupTimeout bounds starting the app-server and its initialize answer.
const startupTimeout = 30 * time.Second

// startProcess runs the app-server in dir and completes the initialize
// handshake. The child gets its own process group and, where the system
// has one, a parent-death signal, so it never outlives the host.
func startProcess(ctx context.Context, opts Options, dir string) (*process, error) {
	cmd := exec.Command(opts.Bin, "app-server")
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
		return nil, fmt.Errorf("start %s app-server: %w", opts.Bin, err)
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	p.conn = newRPCConn(stdout, stdin)
	ictx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	_, err = p.conn.call(ictx, "initialize", map[string]any{
		"clientInfo":   map[string]string{"name": "lookout", "title": "Lookout", "version": clientVersion},
		"capabilities": map[string]any{"experimentalApi": true},
	})
	if err == nil {
		err = p.conn.notify("initialized", nil)
	}
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("codex app-server did not start: %w%s", err, p.stderrNote())
	}
	return p, nil
}

// clientVersion is what Lookout tells Codex it is.
const clientVersion = "0.1.0"

// childEnv is the environment of the app-server: the configured one (the
// user's own by default) without Lookout's credentials, with CODEX_HOME
// when Options.Home names one.
func childEnv(opts Options) []string {
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+1)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LOOKOUT_") || (opts.Home != "" && name == "CODEX_HOME") {
			continue
		}
		env = append(env, kv)
	}
	if opts.Home != "" {
		env = append(env, "CODEX_HOME="+opts.Home)
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

// stop asks the child to end by closing its stdin, then kills its group
// after grace.
func (p *process) stop(grace time.Duration) {
	p.stdin.Close()
	select {
	case <-p.exited:
		// The app-server is gone; its group may still hold helpers.
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
