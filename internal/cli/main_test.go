package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
)

// TestMain points the XDG directories at a temporary directory and unsets
// LOOKOUT_TOKEN, so that no test reads the developer's own host token or
// hosts file, or writes into them (auth login does).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lookout-main-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, v := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"} {
		os.Setenv(v, filepath.Join(dir, v))
	}
	os.Unsetenv("LOOKOUT_TOKEN")
	xdg.Reload()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
