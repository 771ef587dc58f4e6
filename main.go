// Command lookout watches and steers coding-agent sessions from a terminal.
// The command line lives in internal/cli.
package main

import (
	"os"

	"github.com/lookout-sh/lookout/internal/cli"
)

func main() { os.Exit(cli.Main()) }
