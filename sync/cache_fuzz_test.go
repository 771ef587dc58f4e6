package sync

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/lookout-sh/lookout/model"
)

// FuzzReplicaCache feeds arbitrary bytes to the replica cache loader, as a
// corrupt, foreign or hostile cache file would be; with asBody, the bytes
// are the body of a file whose header and checksum are right, so that the
// snapshot decoding and loading behind the checksum are reached too.
// Whatever the bytes: no panic; a file it accepts loads into a state (or
// is refused with an error), and a loaded state re-encodes to a replica
// that loads back to the same canonical state.
func FuzzReplicaCache(f *testing.F) {
	const hostURL, sid = "ws://127.0.0.1:7777/v1/ws", "s1"
	st := model.NewState(sid)
	good, err := encodeReplica(replicaHeader{Host: hostURL, SessionID: sid, Epoch: "e1"}, st.Snapshot(0))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, false)
	f.Add(append(append([]byte{}, good[:len(good)-2]...), "x}"...), false)
	f.Add([]byte("{}\n{}"), false)
	f.Add(good[bytes.IndexByte(good, '\n')+1:], true)
	f.Add([]byte(`{"cursor":"v:s1:3","durableCursor":"v:s1:3","items":[{"itemId":"a","kind":"agentMessage","turnId":"t","revision":2,"status":"completed","position":1,"text":"hi"}],"hasOlder":false,"activeTurn":null,"queuedTurns":[],"pendingApprovals":[],"state":{"title":"x"}}`), true)
	f.Add([]byte(`{"format":"lookout-replica","version":1,"host":"ws://127.0.0.1:7777/v1/ws","sessionId":"s1","epoch":"e","bodyLen":2,"sha256":"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","items":0}`+"\n{}"), false)
	f.Fuzz(func(t *testing.T, data []byte, asBody bool) {
		if asBody {
			data = withReplicaHeader(data, hostURL, sid)
		}
		r, err := decodeReplica(data, hostURL, sid)
		if err != nil {
			if r != nil {
				t.Fatal("a refused replica came back with content")
			}
			return
		}
		st := model.NewState(sid)
		if _, err := st.LoadSnapshot(sid, r.Header.Epoch, r.Snap); err != nil {
			return // a well-formed file whose snapshot the fold refuses: discarded
		}
		again, err := encodeReplica(r.Header, st.Snapshot(0))
		if err != nil {
			t.Fatalf("a loaded replica does not encode: %v", err)
		}
		r2, err := decodeReplica(again, hostURL, sid)
		if err != nil {
			t.Fatalf("a re-encoded replica does not load: %v", err)
		}
		st2 := model.NewState(sid)
		if _, err := st2.LoadSnapshot(sid, r2.Header.Epoch, r2.Snap); err != nil {
			t.Fatalf("a re-encoded snapshot is refused: %v", err)
		}
		if !bytes.Equal(st.Encode(), st2.Encode()) {
			t.Fatalf("replica round trip changed the state:\n%s\n%s", st.Encode(), st2.Encode())
		}
	})
}

// withReplicaHeader makes body a replica file with a matching header.
func withReplicaHeader(body []byte, hostURL, sid string) []byte {
	var snap struct {
		Items []json.RawMessage `json:"items"`
	}
	_ = json.Unmarshal(body, &snap) // a body that is not JSON counts no items: the header still matches it
	sum := sha256.Sum256(body)
	head, _ := json.Marshal(replicaHeader{Format: replicaFormat, Version: replicaVersion, Host: hostURL, SessionID: sid,
		Epoch: "e1", Authority: true, Items: len(snap.Items), BodyLen: len(body), SHA256: hex.EncodeToString(sum[:])})
	return append(append(head, '\n'), body...)
}
