package sync

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/adrg/xdg"

	"github.com/lookout-sh/lookout/internal/datadir"
	"github.com/lookout-sh/lookout/model"
)

// Options configure a Client (and ListSessions). The zero value of every
// field has a documented default.
type Options struct {
	// URL names the host: ws:// or wss:// URL, http(s)://host:port, or a
	// bare host:port. A URL without a path means the path /v1/ws
	// (docs/protocol.md §5). Required.
	URL string
	// Token is an explicit bearer token, the caller's own choice: it is
	// sent to URL (subject to the plaintext rule, see InsecurePlaintext).
	// With Token and TokenFile empty, $LOOKOUT_TOKEN is the explicit token;
	// without any, the hosts file's entry for URL's host, else the local
	// host's token file when URL is the address that host recorded
	// (ResolveCredential has the rules). A client with no token at all
	// connects without one (a --no-auth host accepts it).
	Token string
	// TokenFile names an explicit token file, sent to URL like Token.
	// Token and TokenFile together are refused.
	TokenFile string
	// DataDir is the data directory of a host on this machine ("" means
	// DefaultDataDir()). Its token file (DataDir/token) is sent only to the
	// address the host running there recorded in DataDir/address.
	DataDir string
	// FollowLocalHost makes a client whose token came from DataDir follow
	// the host there when it restarts on another address (hostmove.go):
	// "the host on this data directory" rather than one address.
	FollowLocalHost bool
	// HostsFile is the per-host token store ("" means DefaultHostsFile();
	// "-" means none).
	HostsFile string
	// InsecurePlaintext allows plain ws:// to a host that is not loopback;
	// without it New and ListSessions refuse such a URL with a
	// *CredentialError before dialling.
	InsecurePlaintext bool
	// TLSCAFile is a PEM file of CA certificates trusted for wss:// hosts
	// in addition to the system's roots (for a host serving a self-signed
	// or private-CA certificate). "" means $LOOKOUT_TLS_CA; without either,
	// the system's roots alone.
	TLSCAFile string
	// SessionID is the session to follow. "" makes Run pick the most
	// recently updated session the host lists (callers that want to choose
	// use ListSessions first).
	SessionID string
	// CacheDir is where the replica cache lives: "" means the XDG cache
	// directory + "/lookout"; "-" disables the replica cache.
	CacheDir string
	// Deltas asks the host for ephemeral item/delta streaming
	// (capabilities.deltas).
	Deltas bool
	// ClientName is sent as clientInfo.name ("" means "lookout").
	ClientName string
	// Logger receives debug and warning logs; nil discards them.
	Logger *slog.Logger
	// Now is the time the client reads (a submission's time, the next
	// attempt's, the replica's savedAt, how long a link was live); nil
	// means time.Now.
	Now func() time.Time

	// Replay makes the client fold the session's whole durable history
	// event by event (view/page after from the start, or from its cursor
	// after a reconnect) instead of installing a snapshot tail, so that
	// OnEvent sees every event. The non-interactive commands use it.
	Replay bool
	// OnEvent, if set, is called on the client's goroutine with every
	// server event the client folds, in fold order (re-deliveries and
	// refused events excluded). It must not block and must not retain ev
	// beyond the call unless it copies what it needs.
	OnEvent func(ev *model.Event)
	// SubscribeLimit is the snapshot item limit sent with
	// session/subscribe (0 means 200, the protocol default).
	SubscribeLimit int
	// PageLimit is the number of events asked for per view/page after
	// request (0 means 500).
	PageLimit int
	// OlderLimit is the number of items asked for per view/page before
	// request (0 means 100).
	OlderLimit int
	// MaxSubmitAttempts bounds how often one submission is sent before the
	// client gives up and returns its text to the composer (0 means 8).
	MaxSubmitAttempts int
	// CacheItemLimit is the largest number of items the replica cache
	// stores with sync authority (0 means 5000); a larger range is stored
	// as a display-only tail of that many items.
	CacheItemLimit int
	// CacheBytes bounds the replica cache file (0 means 16 MiB): a range
	// whose encoding is larger is stored as a display-only tail of the
	// newest items that fit, and a larger file is never read.
	CacheBytes int

	// Bounds against a host that sends more than the protocol allows (see
	// model.Limits). 0 means the default; a negative value, no bound.
	//
	// MaxFieldBytes bounds one string field of an item (default 1 MiB;
	// the host's own bound is 64 KiB, so a conforming host never reaches
	// it): the field stops growing, the item is marked cut and the cut is
	// reported in Picture.Errors. MaxItemBytes bounds what deltas grow
	// one item to (default 8 MiB).
	MaxFieldBytes int
	MaxItemBytes  int
	// MaxItems and MaxBytes bound the items held in memory and the bytes
	// of their content (defaults 50,000 items and 256 MiB): past either,
	// the oldest items are dropped and the held range has older history
	// again (View.HasOlder), to be paged back in with LoadOlder.
	MaxItems int
	MaxBytes int64
}

// Default client bounds (Options).
const (
	DefaultMaxFieldBytes = 1 << 20
	DefaultMaxItemBytes  = 8 << 20
	DefaultMaxItems      = 50_000
	DefaultMaxBytes      = 256 << 20
	DefaultCacheBytes    = 16 << 20
)

// limits are the fold's bounds (withDefaults applied: negative means
// none).
func (o Options) limits() model.Limits {
	pos := func(n int) int { return max(n, 0) }
	return model.Limits{FieldBytes: pos(o.MaxFieldBytes), ItemBytes: pos(o.MaxItemBytes), Items: pos(o.MaxItems), Bytes: max(o.MaxBytes, 0)}
}

// NormalizeURL turns the accepted spellings of a host address into the
// WebSocket URL the client dials: ws(s)://host:port/path. A URL without a
// path gets /v1/ws; http becomes ws and https becomes wss; a bare
// host:port is ws://host:port/v1/ws.
func NormalizeURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("no host URL given")
	}
	if !strings.Contains(raw, "://") {
		raw = "ws://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // url.Error quotes the URL unredacted
		}
		return "", fmt.Errorf("bad host URL %q: %w", redactURL(raw), err)
	}
	switch strings.ToLower(u.Scheme) {
	case "ws", "http":
		u.Scheme = "ws"
	case "wss", "https":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("bad host URL %q: scheme must be ws, wss, http or https", redactURL(raw))
	}
	if u.Host == "" {
		return "", fmt.Errorf("bad host URL %q: no host", redactURL(raw))
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/ws"
	}
	u.Fragment = ""
	return u.String(), nil
}

// DefaultDataDir is the data directory of a host on this machine started
// without one: the XDG state directory + "/lookout". It mirrors the host's
// default through the one layout both use (internal/datadir).
func DefaultDataDir() string { return datadir.Default() }

// DefaultCacheDir is the replica cache's default directory: the XDG cache
// directory + "/lookout".
func DefaultCacheDir() string {
	return filepath.Join(xdg.CacheHome, "lookout")
}

// Credential reads what ResolveCredential decides from (the explicit
// token or token file, $LOOKOUT_TOKEN, and only when none of those is
// given, the hosts file and the data directory's token and address
// files) and returns its decision: the URL to dial and the token to send,
// or a *CredentialError. Missing hosts, token or address files are not
// errors; an explicit token file that cannot be read is.
func (o Options) Credential() (Credential, error) {
	in := CredentialInput{
		URL:               o.URL,
		Token:             Secret(strings.TrimSpace(o.Token)),
		TokenFile:         o.TokenFile,
		EnvToken:          Secret(strings.TrimSpace(os.Getenv("LOOKOUT_TOKEN"))),
		InsecurePlaintext: o.InsecurePlaintext,
	}
	if o.TokenFile != "" {
		b, err := os.ReadFile(o.TokenFile)
		if err != nil {
			return Credential{}, &CredentialError{Reason: RefusedTokenFile, Msg: fmt.Sprintf("read the token file: %v", err)}
		}
		in.TokenFileToken = Secret(strings.TrimSpace(string(b)))
	}
	if in.Token == "" && in.TokenFile == "" && in.EnvToken == "" {
		if path := o.hostsFile(); path != "" {
			h, err := LoadHosts(path)
			if err != nil {
				return Credential{}, &CredentialError{Reason: RefusedHostsFile, Msg: err.Error()}
			}
			in.Hosts = h.Tokens()
		}
		dirs := []string{o.DataDir}
		if o.DataDir == "" {
			dirs = datadir.Local()
		}
		// The first local host whose recorded address is the URL lends its
		// token; without one, the first directory explains the refusal.
		var first Credential
		for i, dir := range dirs {
			in.LocalDir = dir
			in.LocalToken = Secret(readTrimmed(datadir.Token(dir)))
			in.LocalAddress = readTrimmed(datadir.Address(dir))
			c, err := ResolveCredential(in)
			if err != nil || c.Source != SourceNone || len(dirs) == 1 {
				return c, err
			}
			if i == 0 {
				first = c
			}
		}
		return first, nil
	}
	return ResolveCredential(in)
}

func (o Options) hostsFile() string {
	switch o.HostsFile {
	case "":
		return DefaultHostsFile()
	case "-":
		return ""
	}
	return o.HostsFile
}

// tlsConfig is the TLS configuration for dialling wss:// hosts: nil (the
// system's roots) unless TLSCAFile or $LOOKOUT_TLS_CA names a CA file,
// whose certificates are then trusted besides the system's. A CA file
// that cannot be read or holds no certificate is an error.
func (o Options) tlsConfig() (*tls.Config, error) {
	path := o.TLSCAFile
	if path == "" {
		path = os.Getenv("LOOKOUT_TLS_CA")
	}
	if path == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("TLS CA file: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("TLS CA file %s holds no PEM certificate", path)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// readTrimmed is a small file's trimmed contents, "" if it cannot be read.
func readTrimmed(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func (o Options) withDefaults() Options {
	if o.ClientName == "" {
		o.ClientName = "lookout"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.SubscribeLimit <= 0 {
		o.SubscribeLimit = 200
	}
	if o.PageLimit <= 0 {
		o.PageLimit = 500
	}
	if o.OlderLimit <= 0 {
		o.OlderLimit = 100
	}
	if o.MaxSubmitAttempts <= 0 {
		o.MaxSubmitAttempts = 8
	}
	if o.CacheItemLimit <= 0 {
		o.CacheItemLimit = 5000
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.MaxFieldBytes == 0 {
		o.MaxFieldBytes = DefaultMaxFieldBytes
	}
	if o.MaxItemBytes == 0 {
		o.MaxItemBytes = DefaultMaxItemBytes
	}
	if o.MaxItems == 0 {
		o.MaxItems = DefaultMaxItems
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.CacheDir == "" {
		o.CacheDir = DefaultCacheDir()
	}
	return o
}
