package host

import (
	"crypto/tls"
	"errors"
	"fmt"
)

// loadTLS loads the host's certificate and key (Options.TLSCert,
// Options.TLSKey). Neither set is no TLS (nil); one without the other, or
// files that do not load, is an error.
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	switch {
	case certFile == "" && keyFile == "":
		return nil, nil
	case certFile == "" || keyFile == "":
		return nil, errors.New("TLS needs both a certificate (--tls-cert) and its key (--tls-key)")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("TLS: %w", err)
	}
	// HTTP/1.1 only: a WebSocket upgrade does not go over HTTP/2.
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}, nil
}

// PlaintextWarning is what a host serving plain ws:// on the non-loopback
// address addr says when it starts: its token and every session cross the
// network readable by anyone on the path.
func PlaintextWarning(addr string) string {
	return fmt.Sprintf("serving plain ws:// on %s, which is not a loopback address: the token and every session cross the network unencrypted; serve TLS with --tls-cert and --tls-key, or bind 127.0.0.1", addr)
}
