package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// DeltaCut names the one delta that was cut (the first past the bound),
// whether it kept a prefix or nothing; a delta that fits, and the
// dropped rest of the stream, have none.
func TestDeltaCutMarksTheDeltaThatWasCut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		deltas []string
		cutAt  int // index of the delta DeltaCut names
	}{
		{"a delta passes the bound", []string{"aaaa", "bbbb", "cccc"}, 1},
		{"a delta ends at the bound, the next is dropped whole", []string{"aaaa", "bb", "cccc", "dddd"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewState(sid)
			s.SetLimits(Limits{FieldBytes: 6})
			mustApply(t, s, frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)))
			for i, d := range tc.deltas {
				mustFold(t, s, &Event{Method: MethodItemDelta, SessionID: sid, Seq: int64(i + 2), ItemID: "m", Field: "text", Delta: d})
				got := s.DeltaCut()
				if (got != nil) != (i == tc.cutAt) {
					t.Fatalf("delta %d: DeltaCut %+v, want it only on delta %d", i, got, tc.cutAt)
				}
				if got != nil && (got.FieldBound != 6 || len(got.Fields) != 1 || got.Fields[0] != "text") {
					t.Fatalf("delta %d: DeltaCut %+v", i, got)
				}
			}
		})
	}
}

// A State that folds a delta a client cut (Event.Cut) marks its item cut
// the same way, and merges it with a cut of its own.
func TestAFoldedClientCutMarksTheItem(t *testing.T) {
	s := NewState(sid)
	mustApply(t, s, frame(MethodItemStarted, 1, 0, item("m", KindReasoning, 1, "inProgress", `"summary":["x"]`)))
	mustFold(t, s, &Event{Method: MethodItemDelta, SessionID: sid, Seq: 2, ItemID: "m", Field: "summary.0", Delta: "kept",
		Cut: &ItemCut{Fields: []string{"summary.0"}, FieldBound: 1 << 20}})
	it := s.Item("m")
	if it.String("summary.0") != "xkept" || it.Cut == nil || it.Cut.Fields[0] != "summary.0" || it.Cut.FieldBound != 1<<20 {
		t.Fatalf("summary %q, cut %+v", it.String("summary.0"), it.Cut)
	}
	mustFold(t, s, &Event{Method: MethodItemDelta, SessionID: sid, Seq: 3, ItemID: "m", Field: "summary.1", Delta: "",
		Cut: &ItemCut{Fields: []string{"summary.1"}, FieldBound: 1 << 20, ItemBound: 8 << 20}})
	if c := s.Item("m").Cut; len(c.Fields) != 2 || c.ItemBound != 8<<20 {
		t.Fatalf("merged cut %+v", c)
	}
	if strings.Contains(string(s.Item("m").AppendJSON(nil)), CutMember) {
		t.Fatal("the canonical encoding carries the client's cut")
	}
}

// The export's JSON of an item the client cut names what was cut; an
// item held whole is its canonical JSON.
func TestAppendExportJSONSaysWhatWasCut(t *testing.T) {
	s := NewState(sid)
	s.SetLimits(Limits{FieldBytes: 4})
	mustApply(t, s, frame(MethodItemStarted, 1, 0, item("m", KindAgentMessage, 1, "inProgress", `"text":""`)))
	mustApply(t, s, frame(MethodItemStarted, 2, 0, item("w", KindAgentMessage, 1, "inProgress", `"text":"ok"`)))
	mustFold(t, s, &Event{Method: MethodItemDelta, SessionID: sid, Seq: 3, ItemID: "m", Field: "text", Delta: "too long"})
	whole := s.Item("w")
	if string(whole.AppendExportJSON(nil)) != string(whole.AppendJSON(nil)) {
		t.Fatalf("an item held whole: %s", whole.AppendExportJSON(nil))
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(s.Item("m").AppendExportJSON(nil), &got); err != nil {
		t.Fatal(err)
	}
	if string(got["text"]) != `"too "` || string(got[CutMember]) != `{"fieldBound":4,"fields":["text"]}` {
		t.Fatalf("text %s, %s %s", got["text"], CutMember, got[CutMember])
	}
}

func mustFold(t *testing.T, s *State, ev *Event) {
	t.Helper()
	if err := s.Apply(ev); err != nil {
		t.Fatal(err)
	}
}
