package host

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// fleetHostIDFile keeps a host's fleet id in its data directory, so the
// host that returns after a death is the same member of its fleet (its
// meta keys and the sessions it wrote are still its own).
const fleetHostIDFile = "fleet-host-id"

var fleetIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// FleetHostID returns the fleet id recorded in dataDir, making one on first
// use: the machine's name (letters, digits, '-' and '_' only, at most 40)
// and six random hex digits, so two hosts on one machine never share it.
func FleetHostID(dataDir string) (string, error) {
	path := filepath.Join(dataDir, fleetHostIDFile)
	if b, err := os.ReadFile(path); err == nil {
		id := strings.TrimSpace(string(b))
		if !fleetIDRE.MatchString(id) {
			return "", fmt.Errorf("%s: %q is not a fleet host id (letters, digits, '-' and '_')", path, id)
		}
		return id, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	id := newFleetHostID(hostnameOrHost())
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(id+"\n"), 0o600); err != nil {
		return "", err
	}
	return id, nil
}

func hostnameOrHost() string {
	if name, err := os.Hostname(); err == nil {
		return name
	}
	return "host"
}

// newFleetHostID is name cut to the characters a fleet id allows, then a
// random suffix.
func newFleetHostID(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() == 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == '.':
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		b.WriteString("host")
	}
	var suffix [3]byte
	_, _ = rand.Read(suffix[:]) // crypto/rand.Read never fails on Linux
	return b.String() + "-" + hex.EncodeToString(suffix[:])
}
