package host_test

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/internal/hostproof"
)

// proofGet asks h's challenge endpoint with nonce (and Origin, if any).
func proofGet(t *testing.T, h *host.Host, nonce, origin string) (int, string) {
	t.Helper()
	u := "http://" + h.Addr() + hostproof.Path + "?" + hostproof.NonceParam + "=" + nonce
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The host answers a challenge without authentication, with an answer
// bound to its token and its own URL, and never with its token.
func TestHostAnswersTheChallenge(t *testing.T) {
	nonce, _ := hostproof.NewNonce()
	h := hosttest.Start(t, host.Options{})
	code, body := proofGet(t, h, nonce, "")
	if code != http.StatusOK || !hostproof.Valid(h.Token(), nonce, h.URL(), body) || strings.Contains(body, h.Token()) {
		t.Fatalf("%d %q", code, body)
	}
	if code, _ := proofGet(t, h, "not-a-nonce", ""); code != http.StatusBadRequest {
		t.Fatalf("a bad nonce: %d", code)
	}
	if code, _ := proofGet(t, h, nonce, "http://evil.example"); code != http.StatusForbidden {
		t.Fatalf("cross-origin: %d", code)
	}

	// A --no-auth host proves itself with the token file a previous run
	// left, and has nothing to prove with without one.
	dir := t.TempDir()
	const old = "0123456789abcdef0123456789abcdef-left-by-an-earlier-run"
	if err := os.WriteFile(host.TokenPath(dir), []byte(old+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	na := hosttest.Start(t, host.Options{DataDir: dir, NoAuth: true})
	if code, body := proofGet(t, na, nonce, ""); code != http.StatusOK || !hostproof.Valid(old, nonce, na.URL(), body) {
		t.Fatalf("no-auth with a token file: %d %q", code, body)
	}
	bare := hosttest.Start(t, host.Options{Ephemeral: true, NoAuth: true})
	if code, _ := proofGet(t, bare, nonce, ""); code != http.StatusNotFound {
		t.Fatalf("no-auth without a token file: %d", code)
	}
}
