package cli

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/sync"
)

// maxTokenBytes bounds a token read by `auth login`.
const maxTokenBytes = 4096

// newAuthCmd is `lookout auth`: the hosts file's tokens, per host.
func newAuthCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Store, remove and list tokens for hosts",
		Long: `Manage the tokens lookout sends to hosts other than the one on this machine.

Tokens are kept per host in ` + sync.DefaultHostsFile() + `
(mode 0600, in a directory made with mode 0700), keyed by scheme, host and
port: a token stored for wss://example.com:443 is sent only there, never to
another host, port or scheme. No command prints a token.

` + tokenHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newAuthLoginCmd(), newAuthLogoutCmd(), newAuthStatusCmd())
	for _, c := range append([]*cobra.Command{cmd}, cmd.Commands()...) {
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	}
	return cmd
}

// oneURL accepts exactly one URL argument.
func oneURL(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageErr(fmt.Errorf("%s takes one URL argument, got %d", cmd.CommandPath(), len(args)))
	}
	return nil
}

func newAuthLoginCmd() *cobra.Command {
	var tokenFile, refusedToken string
	cmd := &cobra.Command{
		Use:   "login URL [--token-file FILE]",
		Short: "Store a host's token in the hosts file",
		Long: `Store the token for the host URL names (its scheme, host and port) in the
hosts file; client commands then send it to that host, and only to it.

The token is read from --token-file, else from standard input (typed without
echo on a terminal, or piped: "lookout auth login URL < file"). It is never
taken from an argument, which would land in shell history and process
listings, and never printed.`,
		Args: oneURL,
		RunE: func(cmd *cobra.Command, args []string) error {
			if refusedToken != "" {
				return usageErr(errors.New("auth login takes no --token: a token in an argument lands in shell history and process listings; pipe it on standard input or use --token-file"))
			}
			key, err := sync.HostKey(args[0])
			if err != nil {
				return usageErr(err)
			}
			tok, err := readLoginToken(cmd, key, tokenFile)
			if err != nil {
				return err
			}
			path := sync.DefaultHostsFile()
			h, err := sync.LoadHosts(path)
			if err != nil {
				return err
			}
			if _, err := h.Set(key, tok); err != nil {
				return usageErr(err)
			}
			if err := h.Save(path); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Stored a token for %s in %s.\n", key, path)
			if plaintextOffMachine(key) {
				fmt.Fprintf(out, "Note: %s is plain ws:// to a host that is not loopback; client commands refuse it unless --insecure-plaintext. Prefer wss://.\n", key)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "read the token from this file (default: standard input)")
	cmd.Flags().StringVar(&refusedToken, "token", "", "not accepted: use --token-file or standard input")
	_ = cmd.Flags().MarkHidden("token")
	return cmd
}

// readLoginToken reads the token for `auth login`: from file, else from
// standard input (without echo when it is a terminal).
func readLoginToken(cmd *cobra.Command, key, file string) (sync.Secret, error) {
	var raw []byte
	var err error
	from := "standard input"
	switch in := cmd.InOrStdin(); {
	case file != "":
		from = file
		raw, err = readBounded(file, nil)
	case isTerminal(in):
		fmt.Fprintf(cmd.ErrOrStderr(), "Token for %s (input hidden): ", key)
		raw, err = term.ReadPassword(in.(*os.File).Fd())
		fmt.Fprintln(cmd.ErrOrStderr())
	default:
		raw, err = readBounded("", in)
	}
	if err != nil {
		return "", fmt.Errorf("read the token from %s: %w", from, err)
	}
	tok, err := checkToken(raw)
	if err != nil {
		return "", usageErr(fmt.Errorf("the token from %s %w", from, err))
	}
	return tok, nil
}

// readBounded reads at most maxTokenBytes+1 bytes of the file, or of r.
func readBounded(file string, r io.Reader) ([]byte, error) {
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return io.ReadAll(io.LimitReader(r, maxTokenBytes+1))
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// checkToken trims raw and accepts one line of printable, space-free
// text of at most maxTokenBytes. Its errors never quote the token.
func checkToken(raw []byte) (sync.Secret, error) {
	if len(raw) > maxTokenBytes {
		return "", fmt.Errorf("is longer than %d bytes", maxTokenBytes)
	}
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return "", errors.New("is empty")
	}
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return "", errors.New("holds spaces, line breaks or control characters: give exactly one token")
		}
	}
	return sync.Secret(s), nil
}

// plaintextOffMachine reports whether a HostKey is plain ws:// to a host
// that is not loopback (refused without --insecure-plaintext).
func plaintextOffMachine(key string) bool {
	u, err := url.Parse(key)
	return err == nil && u.Scheme == "ws" && !sync.IsLoopbackHost(u.Hostname())
}

func newAuthLogoutCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "logout URL",
		Short: "Remove a host's token from the hosts file",
		Args:  oneURL,
		RunE: func(cmd *cobra.Command, args []string) error {
			path := sync.DefaultHostsFile()
			h, err := sync.LoadHosts(path)
			if err != nil {
				return err
			}
			key, ok, err := h.Remove(args[0])
			if err != nil {
				return usageErr(err)
			}
			if !ok {
				return fmt.Errorf("no token is stored for %s in %s", key, path)
			}
			if err := h.Save(path); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Removed the token for %s from %s.\n", key, path)
			return nil
		},
	}
}

func newAuthStatusCmd() *cobra.Command {
	var dataDir string
	cmd := &cobra.Command{
		Use:   "status",
		Short: "List the hosts that have a token, and where each token goes (never the tokens)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			path := sync.DefaultHostsFile()
			h, err := sync.LoadHosts(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Hosts file: %s\n", path)
			if warn := looseMode(path, 0o600); warn != "" {
				fmt.Fprintf(out, "  warning: %s\n", warn)
			}
			if warn := looseMode(filepath.Dir(path), 0o700); warn != "" {
				fmt.Fprintf(out, "  warning: %s\n", warn)
			}
			if len(h.Hosts) == 0 {
				fmt.Fprintln(out, "  no tokens stored (\"lookout auth login URL\" stores one)")
			}
			for _, k := range h.Keys() {
				note := ""
				if plaintextOffMachine(k) {
					note = " (plain ws:// off this machine: needs --insecure-plaintext)"
				}
				fmt.Fprintf(out, "  %s: token stored%s\n", k, note)
			}
			dirs := []string{dataDir}
			if dataDir == "" {
				dirs = host.LocalDataDirs()
			}
			for _, dir := range dirs {
				fmt.Fprintf(out, "Local host: %s\n", dir)
				_, terr := os.Stat(host.TokenPath(dir))
				addr, aerr := host.RunningURL(dir)
				switch {
				case terr != nil:
					fmt.Fprintln(out, "  no token file")
				case aerr != nil:
					fmt.Fprintln(out, "  token file present; no running host recorded its address, so it is sent nowhere")
				default:
					fmt.Fprintf(out, "  token file present; sent only to %s, once the process there proves it is this host\n", addr)
				}
			}
			if os.Getenv("LOOKOUT_TOKEN") != "" {
				fmt.Fprintln(out, "LOOKOUT_TOKEN is set: it is sent to whatever URL a command is given, instead of the tokens above")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dataDir, "data", "", "data directory of a host on this machine (default "+host.DefaultDataDir()+")")
	return cmd
}

// looseMode says, if path exists and others may access it beyond want,
// how to fix it; "" otherwise.
func looseMode(path string, want os.FileMode) string {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm()&^want == 0 {
		return ""
	}
	return fmt.Sprintf("%s has mode %#o; run: chmod %o %s", path, fi.Mode().Perm(), want, path)
}
