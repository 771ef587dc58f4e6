package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzDecodeAndFold feeds newline-separated frames to the decoder and the
// fold. Whatever the input: no panic; a refused event changes nothing; a
// re-delivered event changes nothing; a snapshot of the result loads back
// to the same canonical state.
func FuzzDecodeAndFold(f *testing.F) {
	f.Add(strings.Join([]string{
		frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)),
		frame(MethodItemDelta, 2, -1, delta("m", "", "Hello")),
		frame(MethodItemDelta, 3, -1, delta("m", "summary.0", "x")),
		frame(MethodItemCompleted, 4, 1, item("m", KindAgentMessage, 2, "completed", `"text":"Hello"`)),
	}, "\n"))
	f.Add(strings.Join([]string{
		frame(MethodTurnQueued, 1, 0, `"turnId":"t1","commandId":"c1","text":"hi"`),
		frame(MethodTurnStarted, 2, 1, `"turnId":"t1","startedAt":"x"`),
		frame(MethodApprovalRequested, 3, 2, `"approvalId":"a","summary":{"k":1},"options":[{"id":"approve"}]`),
		frame(MethodSessionState, 4, 3, `"title":"é\u2028<>"`),
		frame(MethodWarning, 5, -1, `"attempt":"x"`),
		frame(MethodTurnCompleted, 6, 4, `"turnId":"t1","status":"failed","error":"bad"`),
		frame("x/y", 7, 6, ``),
	}, "\n"))
	f.Add(`{"jsonrpc":"2.0","method":"item/delta","params":{"sessionId":"s1","viewCursor":"v:s1:9","itemId":"a","field":"a..b","delta":"x"}}`)
	f.Add(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `garbage` + "\n" + `{"jsonrpc":"2.0","method":"heartbeat"}`)
	f.Fuzz(func(t *testing.T, data string) {
		s := NewState(sid)
		for _, line := range strings.Split(data, "\n") {
			ev, err := DecodeFrame([]byte(line))
			if err != nil {
				if !errors.As(err, new(*FoldError)) {
					t.Fatalf("untyped error %T: %v", err, err)
				}
				s.Pass(ev)
				continue
			}
			before := s.Encode()
			if err := s.Apply(ev); err != nil {
				if !errors.As(err, new(*FoldError)) {
					t.Fatalf("untyped error %T: %v", err, err)
				}
				if !bytes.Equal(before, s.Encode()) {
					t.Fatalf("a refused event changed the state: %s", line)
				}
				continue
			}
			after := s.Encode()
			if err := s.Apply(ev); err != nil || !bytes.Equal(after, s.Encode()) {
				t.Fatalf("re-delivery changed the state (%v): %s", err, line)
			}
		}
		_ = s.View().Rows()
		raw, err := json.Marshal(s.Snapshot(0))
		if err != nil {
			t.Fatal(err)
		}
		var snap Snapshot
		if err := json.Unmarshal(raw, &snap); err != nil {
			t.Fatalf("snapshot does not decode: %v\n%s", err, raw)
		}
		c := NewState(sid)
		if _, err := c.LoadSnapshot(sid, "e", snap); err != nil {
			t.Fatalf("own snapshot refused: %v\n%s", err, raw)
		}
		if !bytes.Equal(c.Encode(), s.Encode()) {
			t.Fatalf("snapshot round trip differs:\n%s\n%s", c.Encode(), s.Encode())
		}
	})
}
