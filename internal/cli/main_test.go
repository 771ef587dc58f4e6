package cli

import (
	"os"
	"testing"

	"github.com/lookout-sh/lookout/internal/servetest"
	"github.com/lookout-sh/lookout/internal/xdgtest"
)

// TestMain keeps the tests away from the developer's own host token and
// hosts file (xdgtest.Run).
func TestMain(m *testing.M) {
	code := xdgtest.Run(m)
	servetest.Remove()
	os.Exit(code)
}
