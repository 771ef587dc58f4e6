package sync

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lookout-sh/lookout/internal/hostproof"
)

// UnprovenHostError: the process at the address a local host recorded did
// not prove it is that host, so the local token was not sent. Its message
// never contains the token.
type UnprovenHostError struct {
	// Dir is the data directory whose token was withheld; URL the address
	// its host recorded, which was dialled.
	Dir, URL string
	// Stale: no host holds Dir's lock, so the address file was left by a
	// host that died.
	Stale bool
	// Why says what the challenge got.
	Why string
	// unreachable: nothing accepted the connection, so there was nothing
	// to challenge (a host restarting may yet come back).
	unreachable bool
}

func (e *UnprovenHostError) Error() string {
	if e.Stale {
		return fmt.Sprintf("no host is running on %s (stale address file): %s %s; its token was not sent", e.Dir, redactURL(e.URL), e.Why)
	}
	return fmt.Sprintf("the process at %s did not prove it is the host of %s (it %s); its token was not sent", redactURL(e.URL), e.Dir, e.Why)
}

// proofTimeout bounds one challenge.
const proofTimeout = 5 * time.Second

// maxProofBody bounds the challenge's answer (a proof is 64 bytes).
const maxProofBody = 256

// requireProof makes d send cred's local token only on a connection whose
// peer first proved it is the host that recorded cred.LocalAddress: the
// challenge (hostproof) runs on the very connection the WebSocket
// handshake then uses, so no other process can step in between. The
// local host is on this machine, so no proxy is used.
func requireProof(d *websocket.Dialer, cred Credential, tlsConf *tls.Config) error {
	u, err := url.Parse(cred.URL)
	if err != nil {
		return err
	}
	d.Proxy = nil
	base := d.NetDialContext
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := base(ctx, network, addr)
		if err != nil {
			if stale(cred.LocalDir) {
				return nil, &UnprovenHostError{Dir: cred.LocalDir, URL: cred.URL, Stale: true, Why: "cannot be reached", unreachable: true}
			}
			return nil, err
		}
		if u.Scheme == "wss" {
			conf := &tls.Config{}
			if tlsConf != nil {
				conf = tlsConf.Clone()
			}
			if conf.ServerName == "" {
				conf.ServerName = u.Hostname()
			}
			conf.NextProtos = []string{"http/1.1"}
			tc := tls.Client(c, conf)
			if err := tc.HandshakeContext(ctx); err != nil {
				c.Close()
				return nil, err
			}
			c = tc
		}
		if why := challenge(ctx, c, u.Host, cred); why != "" {
			c.Close()
			return nil, &UnprovenHostError{Dir: cred.LocalDir, URL: cred.URL, Stale: stale(cred.LocalDir), Why: why}
		}
		return c, nil
	}
	if u.Scheme == "wss" {
		d.NetDialTLSContext = dial // the TLS handshake is done in dial
	} else {
		d.NetDialContext = dial
	}
	return nil
}

// stale reports whether dir's lock is known to be free: no host runs there.
func stale(dir string) bool {
	held, known := hostHoldsLock(dir)
	return known && !held
}

// challenge asks the peer on c for hostproof.Sum(token, nonce, recorded
// URL) and checks the answer; it returns "" when the peer proved it is
// the host, else what the peer did (a phrase after "it"). Nothing but the
// nonce is sent, and the connection is left just after the answer, ready
// for the handshake.
func challenge(ctx context.Context, c net.Conn, hostHeader string, cred Credential) string {
	nonce, err := hostproof.NewNonce()
	if err != nil {
		return "could not be challenged (no nonce)"
	}
	deadline := time.Now().Add(proofTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = c.SetDeadline(deadline)
	defer func() { _ = c.SetDeadline(time.Time{}) }()
	req := "GET " + hostproof.Path + "?" + hostproof.NonceParam + "=" + nonce + " HTTP/1.1\r\n" +
		"Host: " + hostHeader + "\r\nUser-Agent: lookout\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		return "could not be challenged"
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return "did not answer the challenge over HTTP"
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("answered the challenge with HTTP %d", resp.StatusCode)
	}
	if resp.Close || resp.ContentLength <= 0 || resp.ContentLength > maxProofBody {
		return "answered the challenge malformed"
	}
	body := make([]byte, resp.ContentLength)
	if _, err := io.ReadFull(resp.Body, body); err != nil || br.Buffered() != 0 {
		return "answered the challenge malformed"
	}
	if !hostproof.Valid(string(cred.Token), nonce, cred.LocalAddress, strings.TrimSpace(string(body))) {
		return "answered the challenge wrongly"
	}
	return ""
}

// asUnproven finds an *UnprovenHostError in err.
func asUnproven(err error) (*UnprovenHostError, bool) {
	var u *UnprovenHostError
	return u, errors.As(err, &u)
}
