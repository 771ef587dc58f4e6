package host

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lookout-sh/lookout/internal/datadir"
)

// ErrDataDirInUse is returned (wrapped) by Start when another running host
// holds the data directory. That host's URL is in AddressPath(dataDir).
var ErrDataDirInUse = errors.New("data directory in use by another host")

// AddressPath is the file in which a running durable host (the one that
// holds the data directory's lock) records its WebSocket URL, so that another process on the machine (a second `lookout`) can
// find it. The host removes it when it closes; a host that died leaves it
// behind, which is why readers should treat it as a hint.
func AddressPath(dataDir string) string { return datadir.Address(dataDir) }

// RunningURL returns the URL recorded by the host running on dataDir.
func RunningURL(dataDir string) (string, error) {
	b, err := os.ReadFile(AddressPath(dataDir))
	if err != nil {
		return "", err
	}
	u := strings.TrimSpace(string(b))
	if !strings.HasPrefix(u, "ws://") && !strings.HasPrefix(u, "wss://") {
		return "", fmt.Errorf("%s does not hold a host URL", AddressPath(dataDir))
	}
	return u, nil
}

func writeAddress(dir, url string) error {
	tmp, err := os.CreateTemp(dir, ".address-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(url); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), AddressPath(dir))
}
