package host

import (
	"github.com/lookout-sh/lookout/model"
)

// A fast agent streams an answer in deltas of a few characters, thousands
// a second, and the writer sends what gathered in deltaLinger together. A
// client that says it takes coalesced deltas (initialize's capability
// "coalesceDeltas") receives each run of consecutive deltas of one item
// and field in such a batch as one item/delta: the texts joined, at the
// last delta's viewCursor. It then reads, decodes and folds one frame
// where it would have folded twenty, for the same text; the seqs it skips
// are ephemeral, which the protocol lets a client miss without a gap.

// maxCoalescedDelta bounds the text of a coalesced delta, so that a burst
// still reaches the client as frames of a modest size.
const maxCoalescedDelta = 16 << 10

// deltaPart is what a queued item/delta frame says, kept beside its bytes
// so that a run of them can be joined.
type deltaPart struct {
	ev          *model.Event // the decoded delta (SessionID, Seq, ItemID, Field, Delta)
	emittedAtMs int64
}

// joins reports whether q can follow p in one coalesced delta.
func (p *deltaPart) joins(q *deltaPart) bool {
	return p.ev.SessionID == q.ev.SessionID && p.ev.ItemID == q.ev.ItemID && p.ev.Field == q.ev.Field
}

// coalesceDeltas replaces each run of consecutive joinable deltas in batch
// by one frame, in place, and returns the shortened batch and how many
// bytes fewer it holds. Frames other than deltas are kept as they are and
// keep their order.
func coalesceDeltas(batch []outMsg) ([]outMsg, int) {
	out, saved := batch[:0], 0
	for i := 0; i < len(batch); {
		first := batch[i].delta
		j, text := i+1, 0
		if first != nil {
			text = len(first.ev.Delta)
			for j < len(batch) && batch[j].delta != nil && first.joins(batch[j].delta) &&
				text+len(batch[j].delta.ev.Delta) <= maxCoalescedDelta {
				text += len(batch[j].delta.ev.Delta)
				j++
			}
		}
		if j == i+1 {
			out = append(out, batch[i])
			i++
			continue
		}
		m := joinDeltas(batch[i:j], text)
		for k := i; k < j; k++ {
			saved += len(batch[k].data)
		}
		saved -= len(m.data)
		out = append(out, m)
		i = j
	}
	return out, saved
}

// deltaParams encodes ev as item/delta params: sessionId, viewCursor,
// itemId, field, delta.
func deltaParams(ev *model.Event) []byte {
	p := appendParamsHead(make([]byte, 0, len(ev.Delta)+len(ev.Delta)/8+len(ev.SessionID)*2+len(ev.ItemID)+96), ev.SessionID, ev.Seq)
	p = append(p, `,"itemId":`...)
	p = model.AppendJSONString(p, ev.ItemID)
	p = append(p, `,"field":`...)
	p = model.AppendJSONString(p, ev.Field)
	p = append(p, `,"delta":`...)
	p = model.AppendJSONString(p, ev.Delta)
	return append(p, '}')
}

// joinDeltas is the one frame for a run of joinable deltas holding text
// bytes in all: their texts in order, at the last one's cursor and time.
func joinDeltas(run []outMsg, text int) outMsg {
	last := run[len(run)-1].delta
	joined := make([]byte, 0, text)
	for _, m := range run {
		joined = append(joined, m.delta.ev.Delta...)
	}
	ev := *last.ev
	ev.Delta = string(joined)
	return outMsg{
		data:    notificationFrame(model.MethodItemDelta, deltaParams(&ev), last.emittedAtMs),
		kind:    kindDelta,
		shedKey: run[0].shedKey,
		delta:   &deltaPart{ev: &ev, emittedAtMs: last.emittedAtMs},
	}
}
