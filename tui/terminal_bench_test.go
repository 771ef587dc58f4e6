package tui

import (
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// terminalWriter does per frame what Bubble Tea's renderer does with a
// view on the alternate screen of a tmux pane: parse it into cells, diff
// them with the screen and write the difference (here, only counted).
type terminalWriter struct {
	cells   uv.ScreenBuffer
	screen  *uv.TerminalRenderer
	written int
	spent   time.Duration
}

func (w *terminalWriter) Write(p []byte) (int, error) {
	w.written += len(p)
	return len(p), nil
}

func newTerminalWriter(width, height int) *terminalWriter {
	w := &terminalWriter{cells: uv.NewScreenBuffer(width, height)}
	w.screen = uv.NewTerminalRenderer(w, []string{"TERM=tmux-256color"})
	w.screen.SetTabStops(width)
	w.screen.SetBackspace(true)
	w.screen.SetMapNewline(true)
	w.screen.SetScrollOptim(true)
	w.screen.SetFullscreen(true)
	w.screen.Erase()
	return w
}

func (w *terminalWriter) frame(content string) {
	t0 := time.Now()
	w.cells.Clear()
	uv.NewStyledString(content).Draw(w.cells, w.cells.Bounds())
	w.screen.Render(w.cells.RenderBuffer)
	_ = w.screen.Flush()
	w.spent += time.Since(t0)
}

// BenchmarkLongmdTerminal streams the 200 KB answer at 2,000 deltas/s
// drawn at 10 frames a second (the pace docs/tui.md gives a fast stream),
// through the model and the terminal writer both: one op is the whole
// answer. It reports the writer's share and the bytes it wrote, the part
// of the end-to-end CPU that BenchmarkLongmdStream leaves out.
func BenchmarkLongmdTerminal(b *testing.B) {
	text := longmd(b)
	var spent time.Duration
	written := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		f, m := streamModel(b)
		w := newTerminalWriter(120, 40)
		b.StartTimer()
		const perFrame = 200 * 10 // 200 deltas of 10 bytes
		for i := 0; i < len(text); i += perFrame {
			foldDeltas(b, f, text[i:min(i+perFrame, len(text))])
			m.Update(frameMsg{})
			w.frame(m.View().Content)
		}
		spent += w.spent
		written += w.written
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(b.N), "writer-ms")
	b.ReportMetric(float64(written)/1e6/float64(b.N), "MB-written")
}
