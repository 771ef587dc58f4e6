package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/sync"
)

// credentialFlags say which token a client command sends, and whether it
// may use plain ws:// off this machine. attach and the non-interactive
// commands share them; sync.ResolveCredential applies the rules.
type credentialFlags struct {
	token             string
	tokenFile         string
	dataDir           string
	insecurePlaintext bool
}

// register adds --token, --token-file, --data and --insecure-plaintext.
func (c *credentialFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&c.token, "token", "", "bearer token to send to URL (shows in process lists and shell history: prefer --token-file, $LOOKOUT_TOKEN or \"lookout auth login\")")
	f.StringVar(&c.tokenFile, "token-file", "", "send the token in this file to URL")
	f.StringVar(&c.dataDir, "data", "", "data directory of a host on this machine; its token is sent only to the address that host recorded (default "+sync.DefaultDataDir()+")")
	f.BoolVar(&c.insecurePlaintext, "insecure-plaintext", false, "allow plain ws:// to a host that is not loopback (the token and the session cross the network unencrypted)")
}

// apply copies the flags into o.
func (c *credentialFlags) apply(o *sync.Options) {
	o.Token, o.TokenFile, o.DataDir, o.InsecurePlaintext = c.token, c.tokenFile, c.dataDir, c.insecurePlaintext
}

// tokenHelp is the help text's paragraph on where a client's token comes
// from and to which host it goes (docs/sync.md, "Where the token comes
// from").
const tokenHelp = `The token sent comes from --token or --token-file, else $LOOKOUT_TOKEN: the
user's own choice, sent to the URL given. Without one, the hosts file's
token for the URL's scheme, host and port ("lookout auth login URL" stores
one); else the token file of the host running on this machine (<data>/token,
see --data), but only when URL is the address that host recorded in
<data>/address (localhost, 127.0.0.1 and [::1] are different addresses),
and only after the process there proved it is that host (a stale address
file left by a killed host gets nothing: exit 3). Otherwise no token is
sent.

Plain ws:// (or http://) to a host that is not loopback is refused before
dialling (exit 2) unless --insecure-plaintext; use wss:// instead.`

// credentialExit gives a refusal decided before dialling (a bad URL,
// plain ws:// off this machine, unusable token flags) the usage exit code;
// other errors pass through unchanged.
func credentialExit(err error) error {
	var ce *sync.CredentialError
	if errors.As(err, &ce) {
		return usageErr(err)
	}
	return err
}
