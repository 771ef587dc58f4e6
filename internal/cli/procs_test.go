package cli

import (
	"runtime"
	"testing"
)

func TestSerialProcs(t *testing.T) {
	if serialProcs("4") != nil {
		t.Fatal("GOMAXPROCS=4 in the environment: the client changed the user's setting")
	}
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(runtime.SetDefaultGOMAXPROCS)
	serial := serialProcs("")
	if serial == nil {
		t.Fatal("no GOMAXPROCS in the environment: nothing to make the client serial")
	}
	serial(true)
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("watching: GOMAXPROCS is %d, want 1", n)
	}
	serial(false)
	if n := runtime.GOMAXPROCS(0); n != before {
		t.Fatalf("after input: GOMAXPROCS is %d, want the runtime's %d again", n, before)
	}
}
