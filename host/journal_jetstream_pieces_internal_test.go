package host

import (
	"bytes"
	"strings"
	"testing"
)

// A part bigger than a message is cut into pieces that join back into
// its encoding; a part that fits is one message.
func TestCommitMessagesCutOnlyWhatPassesAMessage(t *testing.T) {
	small := commit{events: []journalEvent{ev(1)}}
	big := commit{events: []journalEvent{{Seq: 2, Method: "item/completed", Params: []byte(strings.Repeat("x", 2500))}}}
	msgs := commitMessages([]commit{small, big}, 1000)
	if len(msgs) != 4 {
		t.Fatalf("%d messages, want the small part whole and the big one in 3 pieces", len(msgs))
	}
	if msgs[0].pieces != 0 || !msgs[0].ends || !bytes.Equal(msgs[0].body, small.encode()) {
		t.Fatalf("the small part: %+v", msgs[0])
	}
	var joined []byte
	for k, m := range msgs[1:] {
		if m.piece != k+1 || m.pieces != 3 || m.ends != (k == 2) || len(m.body) > 1000 {
			t.Fatalf("piece %d: piece %d of %d, ends %v, %d bytes", k, m.piece, m.pieces, m.ends, len(m.body))
		}
		joined = append(joined, m.body...)
	}
	if got, err := decodeCommit(joined); err != nil || len(got.events) != 1 || string(got.events[0].Params) != string(big.events[0].Params) {
		t.Fatalf("the joined pieces decode to %+v, %v", got, err)
	}
}

// The refs of a complete group become the refs of its parts: a run of
// pieces is one ref from its first piece to its last, with the last's
// event range; a run out of order is left out.
func TestJoinPiecesTable(t *testing.T) {
	whole := func(at uint64, seq int64) commitRef {
		return commitRef{at: at, end: at, first: seq, last: seq, count: 1}
	}
	piece := func(at uint64, k, n int, seq int64) commitRef {
		r := commitRef{at: at, end: at, piece: k, pieces: n}
		if k == n {
			r.first, r.last, r.count = seq, seq, 1
		}
		return r
	}
	for _, tc := range []struct {
		name string
		in   []commitRef
		want []commitRef
	}{
		{"whole parts pass", []commitRef{whole(10, 1), whole(12, 2)}, []commitRef{whole(10, 1), whole(12, 2)}},
		{"a run of pieces is one ref", []commitRef{whole(10, 1), piece(11, 1, 3, 0), piece(15, 2, 3, 0), piece(16, 3, 3, 2), whole(17, 3)},
			[]commitRef{whole(10, 1), {at: 11, end: 16, first: 2, last: 2, count: 1, piece: 3, pieces: 3}, whole(17, 3)}},
		{"a run missing a piece is left out", []commitRef{piece(11, 1, 3, 0), piece(16, 3, 3, 2), whole(17, 3)}, []commitRef{whole(17, 3)}},
		{"a run starting mid-way is left out", []commitRef{piece(15, 2, 2, 2), whole(17, 3)}, []commitRef{whole(17, 3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := joinPieces(tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("joinPieces = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("ref %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
