package sync

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/adrg/xdg"
)

// hostsVersion is the hosts file format version this client writes.
const hostsVersion = 1

// Hosts is the client's per-host token store (like gh's hosts file): one
// token per host, keyed by HostKey (scheme, host and port). It lives in
// DefaultHostsFile; `lookout auth login/logout/status` manage it. On disk:
//
//	{"version": 1, "hosts": {"wss://example.com:443": {"token": "..."}}}
//
// The file is written atomically with mode 0600 in a directory created
// with mode 0700.
type Hosts struct {
	Version int                  `json:"version"`
	Hosts   map[string]HostEntry `json:"hosts"`
}

// HostEntry is what the hosts file keeps for one host.
type HostEntry struct {
	Token Secret `json:"token"`
}

// DefaultHostsFile is where the hosts file lives: the XDG config directory
// + "/lookout/hosts.json" (usually ~/.config/lookout/hosts.json).
func DefaultHostsFile() string {
	return filepath.Join(xdg.ConfigHome, "lookout", "hosts.json")
}

// LoadHosts reads the hosts file at path. A missing file is an empty
// store, not an error. Errors never quote the file's contents.
func LoadHosts(path string) (*Hosts, error) {
	h := &Hosts{Version: hostsVersion, Hosts: map[string]HostEntry{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the hosts file: %w", err)
	}
	var onDisk Hosts
	if err := json.Unmarshal(b, &onDisk); err != nil {
		// Not err itself: a syntax error may quote a character of a token.
		return nil, fmt.Errorf("the hosts file %s is not valid JSON: fix or remove it", path)
	}
	if onDisk.Version != hostsVersion {
		return nil, fmt.Errorf("the hosts file %s has version %d; this lookout reads version %d", path, onDisk.Version, hostsVersion)
	}
	for k, e := range onDisk.Hosts {
		h.Hosts[k] = e
	}
	return h, nil
}

// Tokens is the store as ResolveCredential takes it: HostKey -> token.
func (h *Hosts) Tokens() map[string]Secret {
	m := make(map[string]Secret, len(h.Hosts))
	for k, e := range h.Hosts {
		m[k] = e.Token
	}
	return m
}

// Keys lists the stored hosts, sorted.
func (h *Hosts) Keys() []string {
	keys := make([]string, 0, len(h.Hosts))
	for k := range h.Hosts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Set stores token for the host rawURL names and returns its HostKey.
func (h *Hosts) Set(rawURL string, token Secret) (string, error) {
	key, err := HostKey(rawURL)
	if err != nil {
		return "", err
	}
	if token == "" {
		return "", errors.New("empty token")
	}
	h.Hosts[key] = HostEntry{Token: token}
	return key, nil
}

// Remove forgets the host rawURL names; it reports the HostKey and
// whether there was an entry.
func (h *Hosts) Remove(rawURL string) (string, bool, error) {
	key, err := HostKey(rawURL)
	if err != nil {
		return "", false, err
	}
	_, ok := h.Hosts[key]
	delete(h.Hosts, key)
	return key, ok, nil
}

// Save writes the store to path atomically (a temporary file in the same
// directory, mode 0600, fsynced, renamed over path). A missing directory
// is created with mode 0700; an existing one is left as it is.
func (h *Hosts) Save(path string) error {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create the hosts file's directory: %w", err)
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	}
	h.Version = hostsVersion
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".hosts-*.json") // mode 0600
	if err != nil {
		return fmt.Errorf("write the hosts file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write the hosts file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write the hosts file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write the hosts file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write the hosts file: %w", err)
	}
	return nil
}
