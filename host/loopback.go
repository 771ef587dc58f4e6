package host

import (
	"net"
	"net/url"
	"strings"
)

// IsLoopback reports whether a listen address (host:port, or a bare host)
// is loopback: localhost, 127.0.0.0/8 or ::1. An empty host (":7777") and
// 0.0.0.0 are not.
func IsLoopback(addr string) bool { return isLoopback(addr) }

func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether an Origin header names the same host:port as
// the request's Host header (case-insensitively).
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}
