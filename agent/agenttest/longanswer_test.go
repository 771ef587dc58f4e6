package agenttest

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestLongAnswerPiecesCutRunes(t *testing.T) {
	got := drain(LongAnswer{Text: "abcdéfgh", Chunk: 3}.Pieces())
	if strings.Join(got, "|") != "abc|déf|gh" {
		t.Errorf("Pieces yields %q", got)
	}
	if got := drain(LongAnswer{}.Pieces()); len(got) < 9000 || len([]rune(got[0])) != 10 || strings.Join(got, "") != LongMarkdown() {
		t.Errorf("the default answer yields %d deltas, the first %q", len(got), got[0])
	}
}

func TestLongAnswerStreamsAtItsRate(t *testing.T) {
	for _, rate := range []float64{0, 1000} {
		w := httptest.NewRecorder()
		s := NewSSE(context.Background(), w, 0)
		var got []string
		start := time.Now()
		ok := LongAnswer{Text: strings.Repeat("x", 1000), Chunk: 10, Rate: rate}.Stream(s, func(d string) bool {
			got = append(got, d)
			return s.Event("delta", map[string]any{"d": d})
		})
		took := time.Since(start)
		// 100 deltas at 1,000 a second: the last is due 99 ms in.
		if !ok || len(got) != 100 || (rate > 0 && took < 99*time.Millisecond) {
			t.Errorf("rate %v: Stream = %v, %d deltas in %v", rate, ok, len(got), took)
		}
		if n := strings.Count(w.Body.String(), "event: delta"); n != 100 || !w.Flushed {
			t.Errorf("rate %v: %d events written, flushed %v", rate, n, w.Flushed)
		}
		if s.FlushEvery != 0 {
			t.Errorf("rate %v: Stream left FlushEvery %d", rate, s.FlushEvery)
		}
	}
}
