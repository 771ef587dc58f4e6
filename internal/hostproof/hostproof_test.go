package hostproof

import "testing"

func TestValid(t *testing.T) {
	const tok, url = "0123456789abcdef0123456789abcdef", "ws://127.0.0.1:7777/v1/ws"
	n, err := NewNonce()
	if err != nil || !ValidNonce(n) {
		t.Fatalf("NewNonce = %q, %v", n, err)
	}
	good := Sum(tok, n, url)
	cases := []struct {
		name                     string
		token, nonce, url, proof string
		want                     bool
	}{
		{"the host's answer", tok, n, url, good, true},
		{"another token", tok + "x", n, url, good, false},
		{"another nonce", tok, n[:63] + "0", url, good, n[63] == '0'},
		{"another URL (a relayed answer)", tok, n, "ws://127.0.0.1:7778/v1/ws", good, false},
		{"upper case", tok, n, url, "X" + good[1:], false},
		{"empty proof", tok, n, url, "", false},
		{"empty token proves nothing", "", n, url, Sum("", n, url), false},
		{"fields do not run together", tok, n + "ws:", "//127.0.0.1:7777/v1/ws", Sum(tok, n, "ws://127.0.0.1:7777/v1/ws"), false},
	}
	for _, c := range cases {
		if got := Valid(c.token, c.nonce, c.url, c.proof); got != c.want {
			t.Errorf("%s: Valid = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestValidNonce(t *testing.T) {
	for n, want := range map[string]bool{
		"": false, "00": false,
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef":  true,
		"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef":  false,
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg":  false,
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0": false,
	} {
		if got := ValidNonce(n); got != want {
			t.Errorf("ValidNonce(%q) = %v", n, got)
		}
	}
}
