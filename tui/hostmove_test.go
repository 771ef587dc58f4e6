package tui

import "testing"

func TestMovedHostName(t *testing.T) {
	cases := []struct {
		name, was, now, want string
	}{
		{"embedded host 127.0.0.1:4000", "ws://127.0.0.1:4000/v1/ws", "ws://127.0.0.1:5000/v1/ws", "embedded host 127.0.0.1:5000"},
		{"127.0.0.1:4000", "ws://127.0.0.1:4000/v1/ws", "ws://127.0.0.1:5000/v1/ws", "127.0.0.1:5000"},
		{"codex on my box", "ws://127.0.0.1:4000/v1/ws", "ws://127.0.0.1:5000/v1/ws", "codex on my box"},
		{"embedded host 127.0.0.1:4000", "::bad", "ws://127.0.0.1:5000/v1/ws", "embedded host 127.0.0.1:4000"},
	}
	for _, c := range cases {
		if got := movedHostName(c.name, c.was, c.now); got != c.want {
			t.Errorf("movedHostName(%q, %q, %q) = %q, want %q", c.name, c.was, c.now, got, c.want)
		}
	}
}
