//go:build !linux

package host

import (
	"testing"
	"time"
)

// rssBytes is 0: only Linux's /proc is read.
func rssBytes(*testing.B) int64 { return 0 }

// processCPU is 0: only Linux's getrusage is read.
func processCPU(*testing.B) time.Duration { return 0 }
