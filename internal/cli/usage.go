package cli

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// usageEverywhere makes every usage error of cmd and its subcommands exit
// 2 (exitUsage): a bad or unknown flag, an unknown subcommand, and any
// argument count or shape a command's Args refuses. Errors that already
// carry an exit code keep it.
func usageEverywhere(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			err := args(c, a)
			var ee *exitError
			if err == nil || errors.As(err, &ee) {
				return err
			}
			return usageErr(err)
		}
	}
	for _, c := range cmd.Commands() {
		usageEverywhere(c)
	}
}

// hostPort is host:port (optionally with a path), the host a DNS name, an
// IPv4 address or a bracketed IPv6 literal.
var hostPort = regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?):([0-9]{2,5})(/\S*)?$`)

// looksLikeHostURL reports whether s, a lone argument, names a host rather
// than a prompt: a ws, wss, http or https URL, or a host:port with a port
// of at least two digits (so "step:2" or "fix: it" stay prompts). `send`
// refuses such an argument alone, since the user forgot the prompt and
// the URL would otherwise be sent as one.
func looksLikeHostURL(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, " \t\n") {
		return false
	}
	lower := strings.ToLower(s)
	for _, scheme := range []string{"ws://", "wss://", "http://", "https://"} {
		if strings.HasPrefix(lower, scheme) {
			return len(s) > len(scheme)
		}
	}
	m := hostPort.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	port, err := strconv.Atoi(m[3])
	return err == nil && port > 0 && port <= 65535
}
