package host

import (
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/lookout-sh/lookout/internal/natstest"
)

func TestNATSSecurity(t *testing.T) {
	cases := []struct {
		name     string
		urls     string
		insecure bool
		wantTLS  bool
		wantErr  string
	}{
		{name: "loopback v4", urls: "nats://127.0.0.1:4222"},
		{name: "loopback name and v6", urls: "nats://localhost:4222,nats://[::1]:4223"},
		{name: "bare loopback address", urls: "127.0.0.1:4222"},
		{name: "another machine", urls: "nats://nats-1:4222", wantTLS: true},
		{name: "tls scheme to another machine", urls: "tls://nats-1:4222", wantTLS: true},
		{name: "one remote among loopback ones", urls: "nats://127.0.0.1:4222, nats://10.0.0.7:4222", wantTLS: true},
		{name: "plain text accepted by the operator", urls: "nats://nats-1:4222", insecure: true},
		{name: "no host", urls: "nats://:4222", wantErr: "not a URL with a host"},
		{name: "a password is not printed", urls: "nats://user:s3cret@%zz", wantErr: "…@"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts, err := natsSecurity(tc.urls, tc.insecure)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "s3cret") {
					t.Fatalf("err = %v, want one saying %q and no password", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := len(opts) > 0; got != tc.wantTLS {
				t.Fatalf("TLS required = %v, want %v", got, tc.wantTLS)
			}
		})
	}
}

// The option natsSecurity gives for another machine really refuses a
// server that offers no TLS (here a plain-text server on loopback).
func TestRequiredTLSRefusesAPlainTextServer(t *testing.T) {
	n := natstest.Start(t, t.TempDir())
	opts, err := natsSecurity("nats://nats-1:4222", false)
	if err != nil || len(opts) == 0 {
		t.Fatalf("natsSecurity = %v, %v; want TLS required", opts, err)
	}
	nc, err := nats.Connect(n.URL(), append(opts, nats.MaxReconnects(0))...)
	if err == nil {
		nc.Close()
		t.Fatal("connected in plain text although TLS was required")
	}
	plain, err := nats.Connect(n.URL())
	if err != nil {
		t.Fatalf("without the option the same server answers: %v", err)
	}
	plain.Close()
}
