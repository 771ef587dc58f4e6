package tui

import (
	"net/url"
	"strings"
)

// observeHost notices when the client followed its host to a new address
// (another window took the embedded host over, or the host restarted):
// the status bar names the new address, and a notice says what happened.
func (m *Model) observeHost(now string) {
	was := m.hostURL
	m.hostURL = now
	if was == "" || now == "" || was == now {
		return
	}
	m.opts.Host = movedHostName(m.opts.Host, was, now)
	m.setNotice("the host moved to "+hostPort(now)+"; following it", false)
}

// movedHostName is the host's name in the status bar once it moved from
// one URL to another: the old host:port in the name becomes the new one,
// and a name that does not contain it is kept.
func movedHostName(name, was, now string) string {
	old, cur := hostPort(was), hostPort(now)
	if old == "" || cur == "" {
		return name
	}
	return strings.ReplaceAll(name, old, cur)
}

// hostPort is a URL's host:port, "" if it has none.
func hostPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
