package sync

import (
	"testing"

	"github.com/lookout-sh/lookout/internal/leakcheck"
)

// TestMain checks that the client tests leak no goroutine and no file
// descriptor.
func TestMain(m *testing.M) { leakcheck.Main(m) }
