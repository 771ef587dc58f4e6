package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/sync"
)

// defaultHost is the address `lookout serve` listens on by default.
const defaultHost = "127.0.0.1:7777"

// clientFlags are the connection flags every client command shares.
type clientFlags struct {
	session string
	cred    credentialFlags
}

func (f *clientFlags) add(cmd *cobra.Command, session bool) {
	if session {
		cmd.Flags().StringVar(&f.session, "session", "", "session id (default: the host's most recently updated session)")
	}
	f.cred.register(cmd)
}

func (f *clientFlags) options(args []string) sync.Options {
	u := defaultHost
	switch {
	case len(args) > 0:
		u = args[0]
	default:
		// No URL: the host running on this machine (on --data, else on
		// any agent's default data directory), else the default address.
		if dir, running, err := runningLocalHost(f.cred.dataDir); err == nil {
			u = running
			if f.cred.dataDir == "" {
				f.cred.dataDir = dir
			}
		}
	}
	o := sync.Options{URL: u, SessionID: f.session, CacheDir: "-", ClientName: "lookout-cli"}
	f.cred.apply(&o)
	return o
}

// hostArg accepts zero or one URL argument.
func hostArg(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageErr(fmt.Errorf("%s takes at most one URL argument, got %d", cmd.Name(), len(args)))
	}
	return nil
}

const urlHelp = `URL names the host: ws://host:port/v1/ws, wss://..., http(s)://host:port,
or host:port (default: the host running on this machine, else ` + defaultHost + `).

` + tokenHelp + `

Exit codes: 0 success, 1 other failure, 2 usage (or a refused plain ws://
URL), 3 token refused, 4 unknown session, 5 host unreachable, 6 prompt
rejected or turn failed.`

// newClientCmds returns the non-interactive commands: watch, export, send,
// sessions.
func newClientCmds() []*cobra.Command {
	cmds := []*cobra.Command{newWatchCmd(), newExportCmd(), newSendCmd(), newAnswerCmd(), newSessionsCmd(), newDeleteCmd(), newWaitCmd()}
	for _, c := range cmds {
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	}
	return cmds
}
