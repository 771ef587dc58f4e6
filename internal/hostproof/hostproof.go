// Package hostproof lets a client check that the process listening at the
// address a data directory's host recorded really is that host, before
// the client sends it the directory's token. The client sends a fresh
// nonce; the host answers HMAC-SHA256(token, nonce, its own URL), which
// only a process holding the token can compute. The token never crosses
// the wire for this, and an answer made for one URL is worth nothing for
// another, so a process squatting a stale address cannot borrow an answer
// from the real host listening elsewhere.
package hostproof

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// Path is the host's pre-authentication endpoint: GET Path?nonce=N is
// answered 200 with Sum(token, N, URL) as the whole body.
const Path = "/v1/proof"

// NonceParam is the query parameter that carries the nonce.
const NonceParam = "nonce"

// nonceBytes is the nonce's length before hex encoding.
const nonceBytes = 32

// label separates this use of the token from any other HMAC of it.
const label = "lookout host proof v1"

// NewNonce is a fresh random nonce, hex-encoded.
func NewNonce() (string, error) {
	b := make([]byte, nonceBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// ValidNonce reports whether n has the form NewNonce makes: 64 lower-case
// hex digits.
func ValidNonce(n string) bool {
	if len(n) != 2*nonceBytes {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Sum is the proof a host whose token is token, listening at url (exactly
// as it records it in its address file), gives for nonce: hex-encoded
// HMAC-SHA256 keyed by the token over the label, the nonce and the URL,
// each ended by a NUL byte.
func Sum(token, nonce, url string) string {
	m := hmac.New(sha256.New, []byte(token))
	for _, s := range []string{label, nonce, url} {
		m.Write([]byte(s))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))
}

// Valid reports, in constant time, whether proof is Sum(token, nonce,
// url). An empty token proves nothing.
func Valid(token, nonce, url, proof string) bool {
	if token == "" {
		return false
	}
	return hmac.Equal([]byte(proof), []byte(Sum(token, nonce, url)))
}
