package host

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/nats-io/nats.go"
)

// natsSecurity is the NATS options that keep a journal's contents off the
// network in the clear, for the journal's and the fleet's connections
// alike: a host that names a NATS server on another machine requires TLS
// of every server it talks to (nats:// URLs upgrade when the server offers
// TLS; tls:// ask for it), unless insecurePlaintext says the operator
// accepts plain text. Loopback servers need no TLS.
func natsSecurity(urls string, insecurePlaintext bool) ([]nats.Option, error) {
	remote, err := remoteServers(urls)
	if err != nil {
		return nil, err
	}
	if len(remote) == 0 || insecurePlaintext {
		return nil, nil
	}
	return []nats.Option{nats.Secure()}, nil
}

// tlsHint is what a failed connection's error adds when secure (from
// natsSecurity) required TLS, so that a plain-text server's refusal says
// what to do.
func tlsHint(secure []nats.Option) string {
	if len(secure) == 0 {
		return ""
	}
	return " (TLS is required of a NATS server on another machine: use tls:// and a server with TLS, or --nats-insecure-plaintext)"
}

// remoteServers lists the servers of a comma-separated NATS URL list that
// are not on this machine's loopback.
func remoteServers(urls string) ([]string, error) {
	var remote []string
	for _, raw := range strings.Split(urls, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		if !strings.Contains(raw, "://") {
			raw = "nats://" + raw
		}
		u, err := url.Parse(raw)
		if err != nil || u.Hostname() == "" {
			return nil, fmt.Errorf("NATS server URL %q: not a URL with a host", redactUser(raw))
		}
		if !isLoopback(u.Hostname()) {
			remote = append(remote, u.Host)
		}
	}
	return remote, nil
}

// redactUser drops the user information of a URL, which may hold a
// password, from what an error prints.
func redactUser(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		rest = "…@" + rest[at+1:]
	}
	return scheme + "://" + rest
}
