package sync

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCacheHostStripsCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"ws://127.0.0.1:1/v1/ws":                        "ws://127.0.0.1:1/v1/ws",
		"ws://127.0.0.1:1/v1/ws?token=s3cret":           "ws://127.0.0.1:1/v1/ws",
		"ws://127.0.0.1:1/v1/ws?a=1&token=s3cret":       "ws://127.0.0.1:1/v1/ws?a=1",
		"ws://127.0.0.1:1/v1/ws?access_TOKEN=s3cret":    "ws://127.0.0.1:1/v1/ws",
		"wss://user:s3cret@example.com:443/v1/ws":       "wss://example.com:443/v1/ws",
		"ws://h:1/%zz?token=s3cret":                     "ws://h:1/%zz",
		"ws://127.0.0.1:1/v1/ws?b=2&a=1":                "ws://127.0.0.1:1/v1/ws?b=2&a=1",
		"wss://example.com:443/v1/ws?token=a&token=b&c": "wss://example.com:443/v1/ws?c=",
	} {
		if got := cacheHost(in); got != want {
			t.Errorf("cacheHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// A ?token= in the host URL never reaches the replica cache: no file
// under the cache directory holds it, and the replica still round-trips.
// Fails on the code that wrote the URL as it was into the header.
func TestReplicaCacheStoresNoQueryToken(t *testing.T) {
	dir := t.TempDir()
	const url = "ws://127.0.0.1:1/v1/ws?token=s3cret-query-token"
	c := newCacheClient(t, dir, url, "s1")
	c.loop.st, c.loop.authority = settledState(t, "s1", 3), true
	c.loop.cacheDirty()
	c.loop.writeCache(true)

	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("s3cret-query-token")) {
			t.Errorf("%s holds the token", path)
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Fatalf("walk: %d files, %v", files, err)
	}
	if p := newCacheClient(t, dir, url, "s1").Current(); !p.CachePainted {
		t.Fatalf("the replica did not paint back: %v", p.Errors)
	}
}
