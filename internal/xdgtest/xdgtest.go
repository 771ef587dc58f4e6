// Package xdgtest keeps a test binary away from the developer's own
// Lookout state.
package xdgtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
)

// Run points the XDG directories at a temporary directory and unsets
// LOOKOUT_TOKEN, so that no test (nor a process it starts) reads the
// developer's own host token or hosts file, or writes into them (auth
// login does); then it runs the tests and returns their exit code.
func Run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "lookout-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, v := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"} {
		os.Setenv(v, filepath.Join(dir, v))
	}
	os.Unsetenv("LOOKOUT_TOKEN")
	xdg.Reload()
	return m.Run()
}
