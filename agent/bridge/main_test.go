package bridge

import (
	"testing"

	"github.com/lookout-sh/lookout/internal/leakcheck"
)

func TestMain(m *testing.M) { leakcheck.Main(m) }
