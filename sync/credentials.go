package sync

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Secret is a bearer token. It formats as "[redacted]" with fmt (every
// verb) and slog, so a token logged or printed by mistake shows nothing;
// convert it with string() where it is really sent. encoding/json writes
// it as it is (the hosts file needs that).
type Secret string

// String redacts the token.
func (Secret) String() string { return "[redacted]" }

// GoString redacts the token for %#v.
func (Secret) GoString() string { return "[redacted]" }

// LogValue redacts the token for slog.
func (Secret) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// TokenSource names where the token a client sends comes from.
type TokenSource string

// The token sources, in the order ResolveCredential tries them.
const (
	// SourceNone: no token is sent.
	SourceNone TokenSource = ""
	// SourceFlag: Options.Token (--token), the user's own choice.
	SourceFlag TokenSource = "--token"
	// SourceTokenFile: Options.TokenFile (--token-file), the user's own
	// choice.
	SourceTokenFile TokenSource = "--token-file"
	// SourceEnv: $LOOKOUT_TOKEN, the user's own choice.
	SourceEnv TokenSource = "LOOKOUT_TOKEN"
	// SourceHostsFile: the hosts file's entry for the URL's HostKey.
	SourceHostsFile TokenSource = "the hosts file"
	// SourceLocalHost: the token file of the host running on this machine
	// on the data directory, whose recorded address is the URL's.
	SourceLocalHost TokenSource = "the local host's token file"
	// SourceURL: a ?token= the user wrote into the URL, sent as it is when
	// no other source has a token.
	SourceURL TokenSource = "the URL's ?token="
)

// CredentialInput is everything ResolveCredential decides from. Reading
// it (the environment, the token, address and hosts files) is
// Options.Credential's job; the decision itself is pure.
type CredentialInput struct {
	// URL names the host, in any spelling NormalizeURL accepts.
	URL string
	// Token is an explicit token (--token); "" if none.
	Token Secret
	// TokenFile is the path of an explicit token file (--token-file), ""
	// if none; TokenFileToken is its trimmed contents.
	TokenFile      string
	TokenFileToken Secret
	// EnvToken is $LOOKOUT_TOKEN, trimmed.
	EnvToken Secret
	// Hosts is the hosts file: HostKey -> token.
	Hosts map[string]Secret
	// LocalDir is the local host's data directory (named in messages).
	// LocalToken is the contents of LocalDir/token ("" if absent) and
	// LocalAddress the URL the host running there recorded in
	// LocalDir/address ("" if absent).
	LocalDir     string
	LocalToken   Secret
	LocalAddress string
	// InsecurePlaintext allows ws:// to a host that is not loopback.
	InsecurePlaintext bool
}

// Credential is what a client sends, and to which URL.
type Credential struct {
	// URL is the normalised WebSocket URL to dial.
	URL string
	// Token is the bearer token to send; "" means connect without one.
	Token Secret
	// Source says where Token came from (SourceNone without one).
	Source TokenSource
	// Hint, set when no token is sent, says how to supply one and why a
	// token at hand was not used. It never contains a token.
	Hint string
	// LocalDir and LocalAddress, set with SourceLocalHost, are the data
	// directory the token came from and the URL its host recorded: the
	// process dialled must prove it is that host (proof.go) before the
	// token is sent.
	LocalDir     string
	LocalAddress string
}

// CredentialReason names why a CredentialError refused to connect.
type CredentialReason string

// The reasons of a CredentialError.
const (
	// RefusedBadURL: the URL does not name a host.
	RefusedBadURL CredentialReason = "bad-url"
	// RefusedPlaintext: ws:// (or http://) to a host that is not loopback,
	// without InsecurePlaintext.
	RefusedPlaintext CredentialReason = "plaintext"
	// RefusedConflict: both an explicit token and an explicit token file.
	RefusedConflict CredentialReason = "conflict"
	// RefusedTokenFile: the explicit token file cannot be read or is empty.
	RefusedTokenFile CredentialReason = "token-file"
	// RefusedHostsFile: the hosts file cannot be read.
	RefusedHostsFile CredentialReason = "hosts-file"
)

// CredentialError is a refusal decided before dialling: nothing was sent.
// Its message never contains a token.
type CredentialError struct {
	Reason CredentialReason
	Msg    string
}

func (e *CredentialError) Error() string { return e.Msg }

// ResolveCredential decides which token, if any, a client sends to
// in.URL. The rules (docs/sync.md, "Where the token comes from"):
//
//  1. ws:// to a host that is not loopback (127.0.0.0/8, ::1, "localhost")
//     is refused (RefusedPlaintext) unless InsecurePlaintext: the token and
//     the session would cross the network unencrypted. wss:// is fine.
//  2. An explicit token is the user's own choice and goes to the URL given:
//     Token (--token), else TokenFile (--token-file; both at once is
//     RefusedConflict, an empty file RefusedTokenFile), else EnvToken.
//  3. Else the hosts file's entry for HostKey(URL): scheme, host and port
//     must all be equal.
//  4. Else the local host's token, only when the URL's host:port equals
//     the one that host recorded in its address file (the same spelling
//     after normalisation: localhost, 127.0.0.1 and [::1] are different
//     hosts, since another process may listen on any of them). The
//     dialler then sends it only once the process there has proved it is
//     that host (proof.go): the address may be stale.
//  5. Else a ?token= in the URL is the one sent (SourceURL, no Hint).
//  6. Else no token, with a Hint saying how to supply one.
func ResolveCredential(in CredentialInput) (Credential, error) {
	norm, err := NormalizeURL(in.URL)
	if err != nil {
		return Credential{}, &CredentialError{Reason: RefusedBadURL, Msg: err.Error()}
	}
	u, err := url.Parse(norm)
	if err != nil {
		return Credential{}, &CredentialError{Reason: RefusedBadURL, Msg: err.Error()}
	}
	key, err := hostKey(u)
	if err != nil {
		return Credential{}, &CredentialError{Reason: RefusedBadURL, Msg: err.Error()}
	}
	if u.Scheme == "ws" && !IsLoopbackHost(u.Hostname()) && !in.InsecurePlaintext {
		return Credential{}, &CredentialError{Reason: RefusedPlaintext, Msg: fmt.Sprintf(
			"refusing plain ws:// to %s: it is not a loopback address, so the token and the session would cross the network unencrypted; use wss:// (or https://), or pass --insecure-plaintext if you trust the network",
			strings.TrimPrefix(key, "ws://"))}
	}
	c := Credential{URL: norm}
	switch {
	case in.Token != "" && in.TokenFile != "":
		return Credential{}, &CredentialError{Reason: RefusedConflict, Msg: "give either --token or --token-file, not both"}
	case in.Token != "":
		c.Token, c.Source = in.Token, SourceFlag
	case in.TokenFile != "":
		if in.TokenFileToken == "" {
			return Credential{}, &CredentialError{Reason: RefusedTokenFile, Msg: fmt.Sprintf("token file %s is empty", in.TokenFile)}
		}
		c.Token, c.Source = in.TokenFileToken, SourceTokenFile
	case in.EnvToken != "":
		c.Token, c.Source = in.EnvToken, SourceEnv
	case in.Hosts[key] != "":
		c.Token, c.Source = in.Hosts[key], SourceHostsFile
	case in.LocalToken != "" && sameAddress(in.LocalAddress, u):
		c.Token, c.Source = in.LocalToken, SourceLocalHost
		c.LocalDir, c.LocalAddress = in.LocalDir, strings.TrimSpace(in.LocalAddress)
	case hasQueryToken(u):
		c.Source = SourceURL // Token stays "": the URL itself carries it
	default:
		c.Hint = noTokenHint(in, key)
	}
	return c, nil
}

// noTokenHint says how to give a token to the host named by key, and why
// the local host's token file (if there is one) was not used.
func noTokenHint(in CredentialInput, key string) string {
	h := fmt.Sprintf("no token was sent to %s: pass --token-file FILE or --token, set LOOKOUT_TOKEN, or store one with \"lookout auth login %s\"", key, key)
	switch {
	case in.LocalToken == "":
	case in.LocalAddress == "":
		h += fmt.Sprintf("; the token file in %s was not used because no host running there recorded its address", in.LocalDir)
	default:
		h += fmt.Sprintf("; the token file in %s was not used because it belongs to the host at %s", in.LocalDir, in.LocalAddress)
	}
	return h
}

// HostKey is the hosts file's key for a host URL: its scheme (ws or wss
// after NormalizeURL), lower-case host and explicit port (80 for ws, 443
// for wss), e.g. "wss://example.com:443". Path, query and fragment do not
// count: a token belongs to a host, not to a path.
func HostKey(raw string) (string, error) {
	norm, err := NormalizeURL(raw)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(norm)
	if err != nil {
		return "", err
	}
	return hostKey(u)
}

func hostKey(u *url.URL) (string, error) {
	hp, err := hostPort(u)
	if err != nil {
		return "", err
	}
	return u.Scheme + "://" + hp, nil
}

// hostPort is the normalised scheme-less host:port of a normalised ws(s)
// URL: lower-case host, IP addresses in canonical form, the default port
// made explicit.
func hostPort(u *url.URL) (string, error) {
	host := strings.ToLower(u.Hostname())
	if ip := net.ParseIP(host); ip != nil {
		host = ip.String()
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "wss" {
			port = "443"
		}
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || p == 0 {
		return "", fmt.Errorf("bad host URL: bad port %q", port)
	}
	return net.JoinHostPort(host, strconv.FormatUint(p, 10)), nil
}

// sameAddress reports whether the recorded host URL names the same
// host:port as u. Anything unparsable never matches.
func sameAddress(recorded string, u *url.URL) bool {
	if strings.TrimSpace(recorded) == "" {
		return false
	}
	norm, err := NormalizeURL(recorded)
	if err != nil {
		return false
	}
	r, err := url.Parse(norm)
	if err != nil {
		return false
	}
	a, err1 := hostPort(r)
	b, err2 := hostPort(u)
	return err1 == nil && err2 == nil && a == b
}

// IsLoopbackHost reports whether a URL's host (without port or brackets)
// is loopback, so that a connection to it never leaves the machine:
// "localhost" (any case) or an IP address in 127.0.0.0/8 or ::1. Any other
// name, and the unspecified address 0.0.0.0 or ::, is not: an HTTP proxy
// from the environment would carry such a connection off the machine.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hasQueryToken reports whether u carries a token in its query (the
// protocol's ?token=T), which is sent with the URL.
func hasQueryToken(u *url.URL) bool {
	return strings.TrimSpace(u.Query().Get("token")) != ""
}
