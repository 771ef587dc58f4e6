package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"

	"github.com/spf13/pflag"

	"github.com/lookout-sh/lookout/agent/opencode"
	"github.com/lookout-sh/lookout/host"
)

// opencodeFlags configure the OpenCode bridge (--agent opencode).
type opencodeFlags struct {
	bin string
	url string
}

func (o *opencodeFlags) register(f *pflag.FlagSet) {
	f.StringVar(&o.bin, "opencode-bin", "", "opencode executable (default: $"+opencode.EnvBinary+", then opencode on PATH)")
	f.StringVar(&o.url, "opencode-url", "", "attach to this running OpenCode server (http://HOST:PORT; basic auth from $OPENCODE_SERVER_PASSWORD) instead of starting opencode serve")
}

// buildOpenCode checks OpenCode and returns the host options running it:
// a server of the host's own (the binary must be there, new enough), or
// the one --opencode-url names.
func (a *agentFlags) buildOpenCode(ctx context.Context) (host.Options, error) {
	cwd, err := a.workDir()
	if err != nil {
		return host.Options{}, usageErr(err)
	}
	opts := opencode.Options{Cwd: cwd}
	if a.opencode.url != "" {
		u, err := url.Parse(a.opencode.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return host.Options{}, usageErr(fmt.Errorf("--opencode-url %q is not an http(s)://HOST:PORT URL", a.opencode.url))
		}
		opts.URL = a.opencode.url
		opts.Username, opts.Password = os.Getenv("OPENCODE_SERVER_USERNAME"), os.Getenv("OPENCODE_SERVER_PASSWORD")
	} else {
		bin, err := opencode.FindBinary(a.opencode.bin)
		if err != nil {
			return host.Options{}, usageErr(err)
		}
		if _, err := opencode.CheckVersion(ctx, bin); err != nil {
			return host.Options{}, usageErr(err)
		}
		opts.Bin = bin
	}
	return host.Options{Agent: "opencode", AgentImpl: opencode.New(opts)}, nil
}

// opencodeHelp is the part of `lookout serve --help` about OpenCode.
const opencodeHelp = `
OpenCode (--agent opencode): the host runs one "opencode serve" on a
private loopback port for all sessions, in --cwd, with your own OpenCode
configuration (or attaches to a running server, --opencode-url). Every
session is one OpenCode session, kept with the session, so a host restart
or an OpenCode crash continues the same conversation. Shown: streamed
answers and reasoning, tool calls through their states (bash output, exit
code), edits and writes as file changes with diffs, permissions as
approvals (approve, deny, approve for the session), token usage and cost,
errors and retry notices; interrupt aborts the OpenCode turn.
Not yet: images and other attachments, subagent sessions (the task tool
shows as a tool call), OpenCode's question tool (denied), todo lists.
Needs opencode ` + opencode.MinVersion + ` or newer: --opencode-bin, $` + opencode.EnvBinary + `, or opencode on PATH.
`
