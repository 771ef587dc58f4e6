package opencode

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is one running `opencode serve` child.
type process struct {
	cmd      *exec.Cmd
	url      string
	password string
	stderr   *tailBuffer

	exited  chan struct{} // closed once the child has been waited for
	exitErr error         // the child's exit status; read after exited
}

// serverUser is the basic-auth user name of a server the bridge starts.
const serverUser = "opencode"

// startProcess runs `opencode serve` on a free loopback port in dir,
// protected by a random password, and waits until it says where it
// listens. The child gets its own process group and, where the system has
// one, a parent-death signal, so it never outlives the host.
func startProcess(ctx context.Context, opts Options, dir string) (*process, error) {
	var pw [18]byte
	if _, err := rand.Read(pw[:]); err != nil {
		return nil, err
	}
	p := &process{password: hex.EncodeToString(pw[:]), stderr: &tailBuffer{max: 4 << 10}, exited: make(chan struct{})}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(opts.Bin, "serve", "--hostname", "127.0.0.1", "--port", port)
	cmd.Dir = dir
	cmd.Env = childEnv(opts, p.password)
	cmd.SysProcAttr = childSysProcAttr()
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.cmd = cmd
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s serve: %w", opts.Bin, err)
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if _, u, ok := strings.Cut(line, "listening on "); ok {
				select {
				case urls <- strings.TrimSpace(u):
				default:
				}
			} else {
				p.stderr.Write([]byte(line + "\n"))
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case p.url = <-urls:
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("opencode serve exited before listening: %s", p.exitReason())
	case <-ctx.Done():
		p.kill()
		return nil, fmt.Errorf("opencode serve did not start listening: %w%s", ctx.Err(), p.stderrNote())
	}
}

// freePort picks a free loopback port for the server. Given port 0,
// OpenCode takes 4096 when it is free, the port the user's own OpenCode
// defaults to.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// childEnv is the environment of the server: the configured one (the
// user's own by default) without Lookout's variables and any server
// credentials of the user's, with the bridge's own password, and with
// self-updates off (a host's child must not replace its binary).
func childEnv(opts Options, password string) []string {
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+3)
	autoupdate := false
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "LOOKOUT_"), name == "OPENCODE_SERVER_PASSWORD", name == "OPENCODE_SERVER_USERNAME":
			continue
		case name == "OPENCODE_DISABLE_AUTOUPDATE":
			autoupdate = true
		}
		env = append(env, kv)
	}
	if !autoupdate {
		env = append(env, "OPENCODE_DISABLE_AUTOUPDATE=1")
	}
	return append(env, "OPENCODE_SERVER_USERNAME="+serverUser, "OPENCODE_SERVER_PASSWORD="+password)
}

// kill ends the child and its process group at once and waits for it.
func (p *process) kill() {
	if p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
	}
	<-p.exited
}

// stop asks the server's process group to end (SIGTERM), then kills it
// after grace, and kills the commands it was running.
func (p *process) stop(grace time.Duration) {
	if p.cmd.Process == nil {
		return
	}
	// Commands the server still runs, each in a session of its own.
	kids := childGroups(p.cmd.Process.Pid)
	defer func() {
		for _, g := range kids {
			syscall.Kill(-g, syscall.SIGKILL)
		}
	}()
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.exited:
		// The server is gone; its group may still hold helpers.
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	case <-time.After(grace):
		p.kill()
	}
}

// exitReason describes how the child ended, waiting briefly for its exit
// status.
func (p *process) exitReason() string {
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return "it stopped answering" + p.stderrNote()
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

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	return s[:i] + "…"
}
