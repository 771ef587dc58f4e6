package opencode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/lookout-sh/lookout/agent/child"
)

// process is one running `opencode serve` child.
type process struct {
	*child.Process
	url      string
	password string

	outputRead chan struct{} // closed once its stdout was read to the end
}

// serverUser is the basic-auth user name of a server the bridge starts.
const serverUser = "opencode"

// maxLogLine bounds a line of the server's log (its stdout).
const maxLogLine = 64 << 10

// startProcess runs `opencode serve` on a free loopback port in dir,
// protected by a random password, and waits until it says where it
// listens. The child gets its own process group and, where the system has
// one, a parent-death signal, so it never outlives the host. Stop asks it
// to end with SIGTERM and kills the commands it was running, each in a
// session of its own.
func startProcess(ctx context.Context, opts Options, dir string) (*process, error) {
	var pw [18]byte
	if _, err := rand.Read(pw[:]); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	password := hex.EncodeToString(pw[:])
	cp, err := child.Start(child.Command{
		Bin: opts.Bin, Args: []string{"serve", "--hostname", "127.0.0.1", "--port", port}, Dir: dir, Env: childEnv(opts, password),
		NoStdin: true, StopSignal: syscall.SIGTERM, KillChildGroups: true,
	})
	if err != nil {
		return nil, fmt.Errorf("start %s serve: %w", opts.Bin, err)
	}
	p := &process{Process: cp, password: password, outputRead: make(chan struct{})}
	urls := make(chan string, 1)
	go p.readOutput(urls)
	select {
	case p.url = <-urls:
		return p, nil
	case <-p.Exited():
		return nil, fmt.Errorf("opencode serve exited before listening: %s", p.exitReason())
	case <-ctx.Done():
		p.Kill()
		return nil, fmt.Errorf("opencode serve did not start listening: %w%s", ctx.Err(), p.StderrNote())
	}
}

// readOutput reads the server's stdout to its end: the line saying where
// it listens goes to urls, the others are kept with its stderr to say why
// it ended.
func (p *process) readOutput(urls chan<- string) {
	defer close(p.outputRead)
	// The log ends with the server: Exited says how.
	_ = child.ReadLines(p.Stdout(), maxLogLine, func(line []byte) {
		if _, u, ok := strings.Cut(string(line), "listening on "); ok {
			select {
			case urls <- strings.TrimSpace(u):
			default:
			}
			return
		}
		p.Note(line)
	}, p.Note)
}

// exitReason says how the server ended, with the last line it logged.
func (p *process) exitReason() string {
	<-p.outputRead
	return p.ExitReason()
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
// user's own by default) without Lookout's variables, with the bridge's
// own credentials replacing any of the user's, and with self-updates off
// unless the user set them (a host's child must not replace its binary).
func childEnv(opts Options, password string) []string {
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	set := map[string]string{"OPENCODE_SERVER_USERNAME": serverUser, "OPENCODE_SERVER_PASSWORD": password}
	if !slices.ContainsFunc(base, func(kv string) bool { return strings.HasPrefix(kv, "OPENCODE_DISABLE_AUTOUPDATE=") }) {
		set["OPENCODE_DISABLE_AUTOUPDATE"] = "1"
	}
	return child.Env(base, set)
}
