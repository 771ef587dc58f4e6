package sync

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestResolveCredential: which token goes to which URL, and what is
// refused before dialling (docs/sync.md, "Where the token comes from").
// Documentation addresses (192.0.2.x, example.com) are never dialled.
func TestResolveCredential(t *testing.T) {
	const (
		flagTok  = Secret("tok-flag")
		fileTok  = Secret("tok-file")
		envTok   = Secret("tok-env")
		hostsTok = Secret("tok-hosts")
		localTok = Secret("tok-local")
		local    = "ws://127.0.0.1:7777/v1/ws"
	)
	withLocal := func(in CredentialInput) CredentialInput {
		in.LocalDir, in.LocalToken, in.LocalAddress = "/data", localTok, local
		return in
	}
	cases := []struct {
		name   string
		in     CredentialInput
		token  Secret
		source TokenSource
		refuse CredentialReason
		hint   string // a substring of Hint when no token is sent
	}{
		// The local host's token file goes only to the address it recorded.
		{name: "local: its recorded address", in: withLocal(CredentialInput{URL: "127.0.0.1:7777"}), token: localTok, source: SourceLocalHost},
		{name: "local: same address, other spelling", in: withLocal(CredentialInput{URL: "http://127.0.0.1:7777/"}), token: localTok, source: SourceLocalHost},
		{name: "local: the address is compared without scheme", in: withLocal(CredentialInput{URL: "wss://127.0.0.1:7777"}), token: localTok, source: SourceLocalHost},
		{name: "local: another loopback port is a stranger", in: withLocal(CredentialInput{URL: "127.0.0.1:19999"}), hint: "belongs to the host at " + local},
		{name: "local: localhost is not 127.0.0.1", in: withLocal(CredentialInput{URL: "localhost:7777"}), hint: "lookout auth login ws://localhost:7777"},
		{name: "local: ::1 is not 127.0.0.1", in: withLocal(CredentialInput{URL: "[::1]:7777"}), hint: "belongs to"},
		{name: "local: 127.0.0.2 is not 127.0.0.1", in: withLocal(CredentialInput{URL: "127.0.0.2:7777"}), hint: "belongs to"},
		{name: "local: default port is not 7777", in: withLocal(CredentialInput{URL: "ws://127.0.0.1"})},
		{name: "local: no address recorded", in: CredentialInput{URL: "127.0.0.1:7777", LocalDir: "/data", LocalToken: localTok}, hint: "no host running there recorded its address"},
		{name: "local: unparsable address", in: CredentialInput{URL: "127.0.0.1:7777", LocalToken: localTok, LocalAddress: "ftp://x"}},
		{name: "local: recorded localhost, dialled 127.0.0.1", in: CredentialInput{URL: "127.0.0.1:7777", LocalToken: localTok, LocalAddress: "ws://localhost:7777/v1/ws"}},
		{name: "local: recorded localhost, dialled LOCALHOST", in: CredentialInput{URL: "ws://LOCALHOST:7777", LocalToken: localTok, LocalAddress: "ws://localhost:7777/v1/ws"}, token: localTok, source: SourceLocalHost},
		{name: "local: IPv6 canonical form", in: CredentialInput{URL: "ws://[0:0:0:0:0:0:0:1]:7777", LocalToken: localTok, LocalAddress: "ws://[::1]:7777/v1/ws"}, token: localTok, source: SourceLocalHost},
		{name: "local: address but no token file", in: CredentialInput{URL: "127.0.0.1:7777", LocalAddress: local}, hint: "no token was sent to ws://127.0.0.1:7777"},
		{name: "nothing at all", in: CredentialInput{URL: "127.0.0.1:7777"}, hint: "--token-file FILE"},
		{name: "?token= in the URL", in: CredentialInput{URL: "ws://127.0.0.1:7777/v1/ws?token=tok-url"}, source: SourceURL},
		{name: "empty ?token= is none", in: CredentialInput{URL: "ws://127.0.0.1:7777/v1/ws?token="}, hint: "no token was sent"},

		// Explicit tokens are the user's choice and go to the URL given.
		{name: "--token to any loopback URL", in: withLocal(CredentialInput{URL: "127.0.0.1:19999", Token: flagTok}), token: flagTok, source: SourceFlag},
		{name: "--token-file", in: withLocal(CredentialInput{URL: "127.0.0.1:19999", TokenFile: "/f", TokenFileToken: fileTok}), token: fileTok, source: SourceTokenFile},
		{name: "--token and --token-file", in: CredentialInput{URL: "127.0.0.1:1", Token: flagTok, TokenFile: "/f", TokenFileToken: fileTok}, refuse: RefusedConflict},
		{name: "empty --token-file", in: withLocal(CredentialInput{URL: "127.0.0.1:7777", TokenFile: "/f"}), refuse: RefusedTokenFile},
		{name: "LOOKOUT_TOKEN", in: withLocal(CredentialInput{URL: "127.0.0.1:19999", EnvToken: envTok}), token: envTok, source: SourceEnv},
		{name: "--token beats LOOKOUT_TOKEN", in: CredentialInput{URL: "127.0.0.1:1", Token: flagTok, EnvToken: envTok}, token: flagTok, source: SourceFlag},
		{name: "--token-file beats LOOKOUT_TOKEN", in: CredentialInput{URL: "127.0.0.1:1", TokenFile: "/f", TokenFileToken: fileTok, EnvToken: envTok}, token: fileTok, source: SourceTokenFile},
		{name: "LOOKOUT_TOKEN beats the hosts file and the local host", in: withLocal(CredentialInput{URL: local, EnvToken: envTok, Hosts: map[string]Secret{"ws://127.0.0.1:7777": hostsTok}}), token: envTok, source: SourceEnv},

		// The hosts file: scheme, host and port must all be equal.
		{name: "hosts: its host", in: CredentialInput{URL: "wss://example.com/v1/ws", Hosts: map[string]Secret{"wss://example.com:443": hostsTok}}, token: hostsTok, source: SourceHostsFile},
		{name: "hosts: https spelling, upper case", in: CredentialInput{URL: "https://EXAMPLE.com:443", Hosts: map[string]Secret{"wss://example.com:443": hostsTok}}, token: hostsTok, source: SourceHostsFile},
		{name: "hosts: other port", in: CredentialInput{URL: "wss://example.com:8443", Hosts: map[string]Secret{"wss://example.com:443": hostsTok}}, hint: "lookout auth login wss://example.com:8443"},
		{name: "hosts: other host", in: CredentialInput{URL: "wss://example.org", Hosts: map[string]Secret{"wss://example.com:443": hostsTok}}},
		{name: "hosts: wss entry is not sent over ws", in: CredentialInput{URL: "ws://127.0.0.1:9000", Hosts: map[string]Secret{"wss://127.0.0.1:9000": hostsTok}}},
		{name: "hosts: loopback entry", in: CredentialInput{URL: "127.0.0.1:9000", Hosts: map[string]Secret{"ws://127.0.0.1:9000": hostsTok}}, token: hostsTok, source: SourceHostsFile},
		{name: "hosts beats the local host", in: withLocal(CredentialInput{URL: local, Hosts: map[string]Secret{"ws://127.0.0.1:7777": hostsTok}}), token: hostsTok, source: SourceHostsFile},
		{name: "hosts: path does not count", in: CredentialInput{URL: "wss://example.com/other/path?x=1", Hosts: map[string]Secret{"wss://example.com:443": hostsTok}}, token: hostsTok, source: SourceHostsFile},

		// Plain ws:// only to loopback, unless --insecure-plaintext.
		{name: "plaintext: remote with --token", in: CredentialInput{URL: "ws://192.0.2.1:7777", Token: flagTok}, refuse: RefusedPlaintext},
		{name: "plaintext: remote, bare host:port", in: CredentialInput{URL: "192.0.2.1:7777", EnvToken: envTok}, refuse: RefusedPlaintext},
		{name: "plaintext: remote via http://", in: CredentialInput{URL: "http://192.0.2.1:7777"}, refuse: RefusedPlaintext},
		{name: "plaintext: remote hosts-file entry", in: CredentialInput{URL: "ws://example.com:7777", Hosts: map[string]Secret{"ws://example.com:7777": hostsTok}}, refuse: RefusedPlaintext},
		{name: "plaintext: remote, no token at all", in: CredentialInput{URL: "ws://example.com"}, refuse: RefusedPlaintext},
		{name: "plaintext: a name that ends in localhost", in: CredentialInput{URL: "ws://localhost.example.com:7777"}, refuse: RefusedPlaintext},
		{name: "plaintext: the unspecified address", in: CredentialInput{URL: "ws://0.0.0.0:7777"}, refuse: RefusedPlaintext},
		{name: "plaintext: the unspecified IPv6 address", in: CredentialInput{URL: "ws://[::]:7777"}, refuse: RefusedPlaintext},
		{name: "plaintext: a LAN address recorded by the local host", in: CredentialInput{URL: "ws://192.0.2.7:7777", LocalToken: localTok, LocalAddress: "ws://192.0.2.7:7777/v1/ws"}, refuse: RefusedPlaintext},
		{name: "plaintext: allowed with --insecure-plaintext", in: CredentialInput{URL: "ws://192.0.2.1:7777", Token: flagTok, InsecurePlaintext: true}, token: flagTok, source: SourceFlag},
		{name: "plaintext: hosts file with --insecure-plaintext", in: CredentialInput{URL: "ws://example.com:7777", Hosts: map[string]Secret{"ws://example.com:7777": hostsTok}, InsecurePlaintext: true}, token: hostsTok, source: SourceHostsFile},
		{name: "wss to a remote host", in: CredentialInput{URL: "wss://192.0.2.1:7777", Token: flagTok}, token: flagTok, source: SourceFlag},
		{name: "ws to 127.0.0.0/8", in: CredentialInput{URL: "ws://127.1.2.3:7777", Token: flagTok}, token: flagTok, source: SourceFlag},
		{name: "ws to ::1", in: CredentialInput{URL: "ws://[::1]:7777", Token: flagTok}, token: flagTok, source: SourceFlag},
		{name: "ws to localhost", in: CredentialInput{URL: "ws://localhost:7777", Token: flagTok}, token: flagTok, source: SourceFlag},

		// URLs that name no host.
		{name: "bad URL: scheme", in: CredentialInput{URL: "ftp://127.0.0.1:1", Token: flagTok}, refuse: RefusedBadURL},
		{name: "bad URL: empty", in: CredentialInput{Token: flagTok}, refuse: RefusedBadURL},
		{name: "bad URL: port", in: CredentialInput{URL: "ws://127.0.0.1:99999", Token: flagTok}, refuse: RefusedBadURL},
	}
	secrets := []string{string(flagTok), string(fileTok), string(envTok), string(hostsTok), string(localTok)}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ResolveCredential(c.in)
			if c.refuse != "" {
				var ce *CredentialError
				if !errors.As(err, &ce) || ce.Reason != c.refuse {
					t.Fatalf("got %+v, %v; want refusal %q", got, err, c.refuse)
				}
				noSecret(t, err.Error(), secrets)
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if got.Token != c.token || got.Source != c.source {
				t.Fatalf("token from %q (%v), want from %q", got.Source, got.Token == c.token, c.source)
			}
			if got.URL == "" || !strings.HasPrefix(got.URL, "ws") {
				t.Fatalf("URL %q", got.URL)
			}
			if got.Token == "" && !strings.Contains(got.Hint, c.hint) {
				t.Fatalf("hint %q lacks %q", got.Hint, c.hint)
			}
			if got.Token != "" && got.Hint != "" {
				t.Fatalf("hint %q with a token", got.Hint)
			}
			noSecret(t, got.Hint, secrets)
		})
	}
}

func noSecret(t *testing.T, s string, secrets []string) {
	t.Helper()
	for _, x := range secrets {
		if strings.Contains(s, x) {
			t.Fatalf("%q shows a token", s)
		}
	}
}

func TestHostKey(t *testing.T) {
	cases := map[string]string{
		"127.0.0.1:7777":              "ws://127.0.0.1:7777",
		"http://127.0.0.1:7777/v1/ws": "ws://127.0.0.1:7777",
		"https://Example.COM":         "wss://example.com:443",
		"wss://example.com:443/x?y=1": "wss://example.com:443",
		"ws://example.com":            "ws://example.com:80",
		"ws://[::1]:7777":             "ws://[::1]:7777",
		"ws://[0:0::1]:7777":          "ws://[::1]:7777",
		"localhost:01":                "ws://localhost:1",
	}
	for in, want := range cases {
		t.Run(in, func(t *testing.T) {
			if got, err := HostKey(in); err != nil || got != want {
				t.Errorf("HostKey(%q) = %q, %v; want %q", in, got, err, want)
			}
		})
	}
	for _, bad := range []string{"", "ftp://h", "ws://h:0", "ws://h:70000"} {
		t.Run("refused "+bad, func(t *testing.T) {
			if got, err := HostKey(bad); err == nil {
				t.Errorf("HostKey(%q) = %q, want an error", bad, got)
			}
		})
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "127.0.0.1": true, "127.255.0.9": true,
		"::1": true, "::ffff:127.0.0.1": true,
		"0.0.0.0": false, "::": false, "192.0.2.1": false, "example.com": false,
		"localhost.example.com": false, "128.0.0.1": false, "": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// A Secret never shows itself through fmt or slog.
func TestSecretRedacts(t *testing.T) {
	s := Secret("hunter2-token")
	var log strings.Builder
	slog.New(slog.NewTextHandler(&log, nil)).Info("x", "token", s, "cred", Credential{Token: s})
	for _, out := range []string{
		fmt.Sprint(s), fmt.Sprintf("%s %v %q %x %#v %+v", s, s, s, s, s, s),
		fmt.Sprintf("%v %+v %#v", Credential{Token: s}, Credential{Token: s}, Credential{Token: s}),
		log.String(),
	} {
		if strings.Contains(out, "hunter2") || strings.Contains(out, fmt.Sprintf("%x", "hunter2")) {
			t.Fatalf("a token shows: %s", out)
		}
	}
}
