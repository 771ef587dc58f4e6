package codex_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/lookout-sh/lookout/agent/codex/codextest"
	"github.com/lookout-sh/lookout/host/hosttest"
	"github.com/lookout-sh/lookout/model"
)

// BenchmarkLongAnswerThroughCodex streams the 200 KB benchmark answer
// (shared/bench/longmd.md, in 10-character deltas) from the fake model
// through the real Codex app-server into a Lookout host and one subscribed
// client, and reports the CPU seconds of this process (host and client)
// and of the app-server per answer.
func BenchmarkLongAnswerThroughCodex(b *testing.B) {
	text := benchtext.Longmd(b)
	r := newRigTB(b, rigOptions{fake: codextest.FakeOptions{LongText: text, LongChunk: 10}})
	var hostCPU, codexCPU, wall time.Duration
	for i := 0; i < b.N; i++ {
		pid := r.agent.ProcessID(r.SessionID)
		c0, x0 := selfCPU(), procCPU(pid)
		start := time.Now()
		id := r.Submit("long answer please")
		ev, _ := r.Until("the long answer", hosttest.TurnCompleted(id))
		if ev.Status != model.StatusCompleted {
			b.Fatalf("turn ended %s %+v", ev.Status, ev.TurnError)
		}
		wall += time.Since(start)
		hostCPU += selfCPU() - c0
		pid = r.agent.ProcessID(r.SessionID)
		codexCPU += procCPU(pid) - x0
		msgs := r.Items(model.KindAgentMessage, id)
		// The host keeps an answer whole up to host.TextBound.
		if len(msgs) != 1 {
			b.Fatalf("%d answers, want 1", len(msgs))
		}
		if msgs[0].Text() != text || msgs[0].Truncated("text") {
			b.Fatalf("the answer is not the whole text (%d bytes, truncated %v)", len(msgs[0].Text()), msgs[0].TruncatedFields())
		}
	}
	b.ReportMetric(hostCPU.Seconds()/float64(b.N), "host-cpu-s/answer")
	b.ReportMetric(codexCPU.Seconds()/float64(b.N), "codex-cpu-s/answer")
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/answer")
}

// selfCPU is this process's user+system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is a process's user+system CPU time from /proc (0 if unknown).
func procCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // clock ticks (USER_HZ 100)
}
