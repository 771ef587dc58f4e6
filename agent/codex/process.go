package codex

import (
	"context"
	"fmt"
	"time"

	"github.com/lookout-sh/lookout/agent/child"
)

// process is one running `codex app-server` child speaking JSON-RPC over
// its stdin and stdout.
type process struct {
	*child.Process
	conn *rpcConn
}

// appServerArgs run Codex's app-server with its request_user_input tool
// usable in every collaboration mode, not only Plan mode: Lookout puts the
// questions to its users (questions.go).
var appServerArgs = []string{"-c", "features.default_mode_request_user_input=true", "app-server"}

// startupTimeout bounds starting the app-server and its initialize answer.
const startupTimeout = 30 * time.Second

// startProcess runs the app-server in dir and completes the initialize
// handshake. The child gets its own process group and, where the system
// has one, a parent-death signal, so it never outlives the host.
func startProcess(ctx context.Context, opts Options, dir string) (*process, error) {
	cp, err := child.Start(child.Command{Bin: opts.Bin, Args: appServerArgs, Dir: dir, Env: childEnv(opts)})
	if err != nil {
		return nil, fmt.Errorf("start %s app-server: %w", opts.Bin, err)
	}
	p := &process{Process: cp, conn: newRPCConn(cp.Stdout(), cp.Stdin())}
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
		p.Kill()
		return nil, fmt.Errorf("codex app-server did not start: %w%s", err, p.StderrNote())
	}
	return p, nil
}

// clientVersion is what Lookout tells Codex it is.
const clientVersion = "0.1.0"

// childEnv is the environment of the app-server: the configured one (the
// user's own by default) without Lookout's credentials, with CODEX_HOME
// when Options.Home names one.
func childEnv(opts Options) []string {
	return child.Env(opts.Env, map[string]string{"CODEX_HOME": opts.Home})
}
