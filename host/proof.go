package host

import (
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/lookout-sh/lookout/internal/hostproof"
)

// serveProof answers a client's challenge (hostproof.Path?nonce=N) with
// hostproof.Sum(token, N, URL), before any authentication: a client holding
// the data directory's token checks it before sending the token, so that
// a process squatting a stale recorded address never receives it. The
// answer reveals nothing of the token and is bound to this host's URL.
func (h *Host) serveProof(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r.Host) {
		http.Error(w, "forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	nonce := r.URL.Query().Get(hostproof.NonceParam)
	if !hostproof.ValidNonce(nonce) {
		http.Error(w, "bad request: nonce must be 64 lower-case hex digits", http.StatusBadRequest)
		return
	}
	if h.proofKey == "" {
		http.Error(w, "this host has no token to prove itself with", http.StatusNotFound)
		return
	}
	proof := hostproof.Sum(h.proofKey, nonce, h.URL())
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(proof)))
	_, _ = io.WriteString(w, proof)
}

// existingToken is dir's token file as it is, or "" (a --no-auth host
// creates none, but proves itself with one a previous run left).
func existingToken(dir string) string {
	if dir == "" {
		return ""
	}
	b, err := os.ReadFile(TokenPath(dir))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
