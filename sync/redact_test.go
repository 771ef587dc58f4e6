package sync

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"ws://h:1/v1/ws":                  "ws://h:1/v1/ws",
		"ws://h:1/v1/ws?token=s3cret":     "ws://h:1/v1/ws?token=REDACTED",
		"ws://h:1/v1/ws?x=1&Token=s3cret": "ws://h:1/v1/ws?Token=REDACTED&x=1",
		"ws://user:s3cret@h:1/v1/ws":      "ws://user:xxxxx@h:1/v1/ws",
		"ws://h:1/%zz?token=s3cret":       "ws://h:1/%zz?[redacted]",
		"127.0.0.1:1":                     "127.0.0.1:1",
	} {
		got := redactURL(in)
		if got != want || strings.Contains(got, "s3cret") {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
	// NormalizeURL's errors go through it.
	for _, bad := range []string{"ftp://h:1/?token=s3cret", "ws://h:1/%zz?token=s3cret", "ws:///?token=s3cret"} {
		if _, err := NormalizeURL(bad); err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("NormalizeURL(%q): %v", bad, err)
		}
	}
}
