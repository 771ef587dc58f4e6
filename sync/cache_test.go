package sync

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// foldFrames folds notification frames (params JSON by method) into st.
func foldFrames(t testing.TB, st *model.State, frames ...string) {
	t.Helper()
	for _, f := range frames {
		ev, err := model.DecodeFrame([]byte(f))
		if err != nil {
			t.Fatalf("decode %s: %v", f, err)
		}
		if err := st.Apply(ev); err != nil {
			t.Fatalf("apply %s: %v", f, err)
		}
	}
}

// itemFrame is an item event frame of session s at seq (prev: the
// previous durable seq, 0 for none).
func itemFrame(method, sid string, seq, prev int64, id, status string, rev int64, text string) string {
	pc := "null"
	if prev > 0 {
		pc = fmt.Sprintf("%q", model.FormatCursor(sid, prev))
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{"sessionId":%q,"viewCursor":%q,"prevCursor":%s,`+
		`"item":{"itemId":%q,"kind":"agentMessage","turnId":"t1","revision":%d,"status":%q,"recordedAt":"x","text":%q}}}`,
		method, sid, model.FormatCursor(sid, seq), pc, id, rev, status, text)
}

func newCacheClient(t *testing.T, dir, url, sid string) *Client {
	t.Helper()
	c, err := New(Options{URL: url, SessionID: sid, CacheDir: dir, Token: "x"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// settledState is a session of n completed items.
func settledState(t testing.TB, sid string, n int) *model.State {
	st := model.NewState(sid)
	var prev int64
	for i := 1; i <= n; i++ {
		seq := int64(i)
		foldFrames(t, st, itemFrame("item/completed", sid, seq, prev, fmt.Sprintf("i%03d", i), "completed", 1, fmt.Sprintf("message %d", i)))
		prev = seq
	}
	st.Epoch = "ep1"
	return st
}

func TestReplicaRoundTripGrantsAuthority(t *testing.T) {
	dir := t.TempDir()
	c := newCacheClient(t, dir, "127.0.0.1:1", "s1")
	if c.Current().View == nil || len(c.Current().View.Items) != 0 || c.Current().CachePainted {
		t.Fatal("a client without a cache file must start with an empty, unpainted view")
	}
	want := settledState(t, "s1", 5)
	c.loop.st, c.loop.authority = want, true
	c.loop.cacheDirty()
	c.loop.writeCache(true)

	c2 := newCacheClient(t, dir, "127.0.0.1:1", "s1")
	snap := c2.Current()
	if !snap.CachePainted || len(snap.View.Items) != 5 || snap.View.Items[4].Text() != "message 5" {
		t.Fatalf("cache did not paint: painted=%v items=%d", snap.CachePainted, len(snap.View.Items))
	}
	if !c2.loop.authority || c2.loop.st.Epoch != "ep1" {
		t.Fatalf("a settled range must grant authority in its epoch: authority=%v epoch=%q", c2.loop.authority, c2.loop.st.Epoch)
	}
	if got, exp := c2.loop.st.Encode(), want.Encode(); !bytes.Equal(got, exp) {
		t.Fatalf("replica differs from the state written:\n got %s\nwant %s", got, exp)
	}
	if len(snap.Errors) != 0 {
		t.Fatalf("unexpected errors: %v", snap.Errors)
	}
	// Other hosts and sessions have their own files.
	if other := newCacheClient(t, dir, "127.0.0.1:2", "s1").Current(); other.CachePainted {
		t.Fatal("a replica of another host painted")
	}
	if other := newCacheClient(t, dir, "127.0.0.1:1", "s2").Current(); other.CachePainted {
		t.Fatal("a replica of another session painted")
	}
}

func TestReplicaOpenItemIsDisplayOnly(t *testing.T) {
	dir := t.TempDir()
	c := newCacheClient(t, dir, "127.0.0.1:1", "s1")
	st := settledState(t, "s1", 2)
	foldFrames(t, st,
		itemFrame("item/started", "s1", 3, 2, "open", "inProgress", 1, ""),
		`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:4","itemId":"open","delta":"half a sen"}}`)
	c.loop.st, c.loop.authority = st, true
	c.loop.cacheDirty()
	c.loop.writeCache(true)

	c2 := newCacheClient(t, dir, "127.0.0.1:1", "s1")
	if !c2.Current().CachePainted || len(c2.Current().View.Items) != 3 {
		t.Fatal("display-only tail did not paint")
	}
	if c2.loop.authority {
		t.Fatal("a range with a partially streamed item must not grant sync authority")
	}
	if got := c2.Current().View.Items[2].Text(); got != "half a sen" {
		t.Fatalf("tail text %q", got)
	}
}

func TestReplicaTooManyItemsIsDisplayOnlyTail(t *testing.T) {
	dir := t.TempDir()
	c, err := New(Options{URL: "127.0.0.1:1", SessionID: "s1", CacheDir: dir, Token: "x", CacheItemLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	c.loop.st, c.loop.authority = settledState(t, "s1", 25), true
	c.loop.cacheDirty()
	c.loop.writeCache(true)
	c2, err := New(Options{URL: "127.0.0.1:1", SessionID: "s1", CacheDir: dir, Token: "x", CacheItemLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	v := c2.Current().View
	if len(v.Items) != 10 || v.Items[0].ID != "i016" || !v.HasOlder {
		t.Fatalf("tail: %d items, first %q, hasOlder %v", len(v.Items), v.Items[0].ID, v.HasOlder)
	}
	if c2.loop.authority {
		t.Fatal("a sliced range must not grant sync authority")
	}
}

func TestReplicaNotWrittenWithoutAuthority(t *testing.T) {
	dir := t.TempDir()
	c := newCacheClient(t, dir, "127.0.0.1:1", "s1")
	c.loop.st, c.loop.authority = settledState(t, "s1", 3), false
	c.loop.cacheDirty()
	c.loop.writeCache(true)
	if _, err := os.Stat(c.loop.cacheFile()); !os.IsNotExist(err) {
		t.Fatalf("a display-only paint was written back as a replica: %v", err)
	}
}

func TestReplicaCorruptOrForeignIsDiscarded(t *testing.T) {
	good := func(t *testing.T, dir string) (path string, data []byte) {
		c := newCacheClient(t, dir, "127.0.0.1:1", "s1")
		c.loop.st, c.loop.authority = settledState(t, "s1", 3), true
		c.loop.cacheDirty()
		c.loop.writeCache(true)
		path = c.loop.cacheFile()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return path, data
	}
	cases := []struct {
		name   string
		mangle func(path string, data []byte) []byte
		want   string
	}{
		{"flipped body byte", func(_ string, d []byte) []byte {
			d = bytes.Clone(d)
			d[len(d)-5] ^= 0x20
			return d
		}, "checksum mismatch"},
		{"truncated file", func(_ string, d []byte) []byte { return d[:len(d)-10] }, "bytes, header says"},
		{"no header", func(_ string, d []byte) []byte { return []byte("garbage") }, "no header line"},
		{"header not JSON", func(_ string, d []byte) []byte { return []byte("{nope\n{}") }, "malformed header"},
		{"other format", func(_ string, d []byte) []byte {
			return bytes.Replace(d, []byte(`"format":"lookout-replica"`), []byte(`"format":"something-else"`), 1)
		}, "not a replica file"},
		{"future version", func(_ string, d []byte) []byte {
			return bytes.Replace(d, []byte(`"version":1`), []byte(`"version":99`), 1)
		}, "unsupported replica version"},
		{"foreign host", func(_ string, d []byte) []byte {
			return bytes.Replace(d, []byte(`"host":"ws://127.0.0.1:1/v1/ws"`), []byte(`"host":"ws://elsewhere:1/v1/ws"`), 1)
		}, "foreign replica"},
		{"foreign session", func(_ string, d []byte) []byte {
			return bytes.Replace(d, []byte(`"sessionId":"s1","epoch"`), []byte(`"sessionId":"zz","epoch"`), 1)
		}, "foreign replica"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, data := good(t, dir)
			if err := os.WriteFile(path, tc.mangle(path, data), 0o600); err != nil {
				t.Fatal(err)
			}
			c := newCacheClient(t, dir, "127.0.0.1:1", "s1")
			s := c.Current()
			if s.CachePainted || len(s.View.Items) != 0 || c.loop.authority {
				t.Fatal("a bad replica was trusted")
			}
			if len(s.Errors) != 1 || !strings.Contains(s.Errors[0], "replica cache discarded") || !strings.Contains(s.Errors[0], tc.want) {
				t.Fatalf("warning %q, want one mentioning %q", s.Errors, tc.want)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatal("the bad file was kept")
			}
		})
	}
}

func TestReplicaCacheDisabled(t *testing.T) {
	c := newCacheClient(t, "-", "127.0.0.1:1", "s1")
	c.loop.st, c.loop.authority = settledState(t, "s1", 3), true
	c.loop.cacheDirty()
	c.loop.writeCache(true)
	if c.loop.cacheEnabled() {
		t.Fatal("CacheDir - must disable the cache")
	}
	if _, err := os.Stat(filepath.Join("-", "replicas")); err == nil {
		t.Fatal("wrote into a directory named -")
	}
}

func TestSafeName(t *testing.T) {
	if got := safeName("0198f0aa-1111-7000-8000-0000000000aa"); got != "0198f0aa-1111-7000-8000-0000000000aa" {
		t.Fatalf("uuid mangled: %q", got)
	}
	for _, bad := range []string{"../../etc", ".hidden", "a/b", "", strings.Repeat("x", 200)} {
		got := safeName(bad)
		if !strings.HasPrefix(got, "h-") || strings.ContainsAny(got, "/.") {
			t.Errorf("safeName(%q) = %q", bad, got)
		}
	}
}
