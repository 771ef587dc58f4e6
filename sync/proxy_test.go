package sync

import (
	"testing"

	"github.com/lookout-sh/lookout/host/hosttest"
)

// faultProxy is hosttest.Proxy: a loopback TCP proxy that cuts, stalls,
// refuses connections and drops host messages.
type faultProxy = hosttest.Proxy

func newFaultProxy(t testing.TB, target string, seed uint64) *faultProxy {
	return hosttest.NewProxy(t, target, seed)
}
