package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// AppendJSON says what json.Marshal says, for snapshots folded from every
// kind of durable event and for ones with nothing in them.
func TestSnapshotAppendJSONIsMarshal(t *testing.T) {
	full := fold(t,
		frame(MethodTurnQueued, 1, 0, `"turnId":"t1","commandId":"c1","text":"hi <b> & \u2028"`),
		frame(MethodTurnQueued, 2, 1, `"turnId":"t2","commandId":"c2","text":"next"`),
		frame(MethodTurnStarted, 3, 2, `"turnId":"t1","startedAt":"2026-11-30T18:00:00Z","commandId":"c1"`),
		frame(MethodItemStarted, 4, 3, item("m", KindAgentMessage, 1, "inProgress", `"text":"é \"q\" \\ <tag>","extra":{"k":[1,2.5,null]}`)),
		frame(MethodApprovalRequested, 5, 4, `"approvalId":"a","turnId":"t1","itemId":"m","summary":{"k":1},"options":["approve","deny"]`),
		frame(MethodSessionState, 6, 5, `"title":"é\u2028<>","status":"running","model":{"name":"x"}`),
	)
	if fs := full.Snapshot(0); len(fs.Items) == 0 || len(fs.PendingApprovals) == 0 || fs.ActiveTurn == nil || len(fs.QueuedTurns) == 0 || len(fs.State) < 2 {
		t.Fatalf("the folded snapshot lacks a part: %+v", fs)
	}
	for _, c := range []struct {
		name string
		snap Snapshot
	}{
		{"empty", Snapshot{}},
		{"a new state", NewState(sid).Snapshot(0)},
		{"folded", full.Snapshot(0)},
		{"an empty encoding in a list", Snapshot{Items: []json.RawMessage{nil, json.RawMessage(`{"a":1}`)}, State: map[string]json.RawMessage{}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.snap.AppendJSON(nil)
			want, err := json.Marshal(c.snap)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("AppendJSON wrote invalid JSON %s: %v", got, err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("AppendJSON\n%s\njson.Marshal\n%s", got, want)
			}
		})
	}
}

// BenchmarkSnapshotLongMessage encodes a snapshot holding a 200 KB
// message, as the replica cache does once the bench answer completes.
func BenchmarkSnapshotLongMessage(b *testing.B) {
	text := strings.Repeat("A line of *markdown* with `code`, \"quotes\" & <tags>.\n", 3700)
	s := fold(b, frame(MethodItemCompleted, 1, 0, item("m", KindAgentMessage, 2, "completed", `"text":`+string(AppendJSONString(nil, text)))))
	snap := s.Snapshot(0)
	for _, enc := range []struct {
		name string
		f    func() ([]byte, error)
	}{
		{"AppendJSON", func() ([]byte, error) { return snap.AppendJSON(nil), nil }},
		{"json.Marshal", func() ([]byte, error) { return json.Marshal(snap) }},
	} {
		b.Run(enc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := enc.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
