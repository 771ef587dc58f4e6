package sync

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The hosts file round-trips, is keyed by HostKey, and is written with
// mode 0600 in a directory made with mode 0700, leaving no temporary file.
func TestHostsFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", "lookout", "hosts.json")
	h, err := LoadHosts(path)
	if err != nil || len(h.Hosts) != 0 {
		t.Fatalf("missing file: %+v, %v", h, err)
	}
	if key, err := h.Set("https://Example.com/v1/ws", "tok-a"); err != nil || key != "wss://example.com:443" {
		t.Fatalf("Set = %q, %v", key, err)
	}
	if _, err := h.Set("127.0.0.1:9000", "tok-b"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Set("ftp://x", "tok"); err == nil {
		t.Fatal("Set accepted a bad URL")
	}
	if _, err := h.Set("wss://x", ""); err == nil {
		t.Fatal("Set accepted an empty token")
	}
	if err := h.Save(path); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: mode %v, %v; want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("directory holds %d files, want only hosts.json", len(entries))
	}
	back, err := LoadHosts(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Secret{"wss://example.com:443": "tok-a", "ws://127.0.0.1:9000": "tok-b"}
	if got := back.Tokens(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Tokens = %v, want %v", got, want)
	}
	if got := back.Keys(); !reflect.DeepEqual(got, []string{"ws://127.0.0.1:9000", "wss://example.com:443"}) {
		t.Fatalf("Keys = %v", got)
	}
	if key, ok, err := back.Remove("wss://example.com"); err != nil || !ok || key != "wss://example.com:443" {
		t.Fatalf("Remove = %q %v %v", key, ok, err)
	}
	if _, ok, _ := back.Remove("wss://example.com"); ok {
		t.Fatal("removed twice")
	}
	if err := back.Save(path); err != nil {
		t.Fatal(err)
	}
	if again, _ := LoadHosts(path); len(again.Hosts) != 1 {
		t.Fatalf("after Remove: %v", again.Keys())
	}
}

// A broken hosts file is an error that does not quote it.
func TestHostsFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(dir, "bad.json")
	write(bad, `{"version":1,"hosts":{"ws://h:1":{"token":"secret-tok`)
	if _, err := LoadHosts(bad); err == nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("broken file: %v", err)
	}
	future := filepath.Join(dir, "future.json")
	write(future, `{"version":2,"hosts":{}}`)
	if _, err := LoadHosts(future); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("future version: %v", err)
	}
	if _, err := LoadHosts(dir); err == nil {
		t.Fatal("a directory loaded as a hosts file")
	}
}
