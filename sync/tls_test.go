package sync

import (
	"errors"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/host/hosttest"
)

// A host serving wss:// with a certificate of its own CA is reached when
// the client trusts that CA (Options.TLSCAFile or $LOOKOUT_TLS_CA), by
// the one-shot requests and by a following client alike, and refused
// otherwise.
func TestClientsReachAWSSHost(t *testing.T) {
	cert, key, _ := hosttest.SelfSignedCert(t)
	h := startHost(t, host.Options{TLSCert: cert, TLSKey: key, DemoSession: true})
	if !strings.HasPrefix(h.URL(), "wss://") {
		t.Fatalf("URL %s", h.URL())
	}
	opts := Options{URL: h.URL(), Token: h.Token(), HostsFile: "-", DataDir: t.TempDir()}

	t.Setenv("LOOKOUT_TLS_CA", "")
	var ce *ConnectError
	if _, err := ListSessions(t.Context(), opts); !errors.As(err, &ce) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("untrusted certificate: %T %v", err, err)
	}

	trusted := opts
	trusted.TLSCAFile = cert
	ss, err := ListSessions(t.Context(), trusted)
	if err != nil || len(ss) != 1 {
		t.Fatalf("ListSessions over wss: %v %v", ss, err)
	}
	t.Setenv("LOOKOUT_TLS_CA", cert)
	if ss, err := ListSessions(t.Context(), opts); err != nil || len(ss) != 1 {
		t.Fatalf("ListSessions with LOOKOUT_TLS_CA: %v %v", ss, err)
	}
	c := runClient(t, trusted)
	waitFor(t, c.Client, "live over wss", isLive)

	bad := opts
	bad.TLSCAFile = key // not a certificate
	if _, err := ListSessions(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("a CA file without a certificate: %v", err)
	}
}
