package sync

import (
	"strings"
	"testing"
)

// A 401 says whether a token was sent: a refused ?token= is a refused
// token, not a missing one. Fails on the code that said "no token was
// sent" for a URL carrying one.
func TestUnauthorizedMsg(t *testing.T) {
	cases := []struct {
		name      string
		cred      Credential
		want, not string
	}{
		{"none", Credential{URL: "ws://127.0.0.1:1/v1/ws", Hint: "no token was sent to ws://127.0.0.1:1"}, "no token was sent to ws://127.0.0.1:1", "refused the token"},
		{"none, no hint", Credential{URL: "ws://127.0.0.1:1/v1/ws"}, "no token was sent", "refused the token"},
		{"query token", Credential{URL: "ws://127.0.0.1:1/v1/ws?token=s3cret", Source: SourceURL}, "refused the token from the URL's ?token=", "no token was sent"},
		{"flag", Credential{URL: "ws://127.0.0.1:1/v1/ws", Token: "s3cret", Source: SourceFlag}, "refused the token from --token", "no token was sent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := unauthorizedMsg(c.cred)
			if !strings.Contains(got, c.want) || strings.Contains(got, c.not) || strings.Contains(got, "s3cret") {
				t.Fatalf("%q: want %q, not %q, no token", got, c.want, c.not)
			}
		})
	}
}
