package tui

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lookout-sh/lookout/internal/benchtext"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/lookout-sh/lookout/themes"
)

// terminalWriter does per frame what Bubble Tea's renderer does with a
// view on the alternate screen of a tmux pane: parse it into cells, diff
// them with the screen and write the difference (here, only counted).
type terminalWriter struct {
	cells   uv.ScreenBuffer
	screen  *uv.TerminalRenderer
	written int
	spent   time.Duration
	tee     io.Writer // gets what is written, when set
}

func (w *terminalWriter) Write(p []byte) (int, error) {
	w.written += len(p)
	if w.tee != nil {
		return w.tee.Write(p)
	}
	return len(p), nil
}

func newTerminalWriter(width, height int) *terminalWriter {
	w := &terminalWriter{cells: uv.NewScreenBuffer(width, height)}
	w.screen = uv.NewTerminalRenderer(w, []string{"TERM=tmux-256color"})
	// The writer is no terminal, so detection would find no colours at
	// all; a tmux pane without COLORTERM gets 256.
	w.screen.SetColorProfile(colorprofile.ANSI256)
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
	text := benchtext.Longmd(b)
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

// TestPaddingNeedsNoCursorMove holds the reason for concealed padding:
// rows whose text changes in front of their padding are written without
// one cursor move across it (docs/performance.md, "Round 6").
func TestPaddingNeedsNoCursorMove(t *testing.T) {
	const width = 60
	track, thumb := "\x1b[38;5;60m│\x1b[m", "\x1b[38;5;117m┃\x1b[m"
	frame := func(mark string, texts ...string) string {
		var b strings.Builder
		for _, s := range texts {
			b.WriteString(withBar(fit(s, width-1), mark))
			b.WriteByte('\n')
		}
		status, _ := statusLine(themes.Dark(), statusInput{sessionID: "s1", spinner: "x"}, width)
		b.WriteString(status)
		return b.String()
	}
	w := newTerminalWriter(width, 4)
	var out bytes.Buffer
	w.tee = &out
	w.frame(frame(track, "\x1b[1mfirst\x1b[m row, a long one", "", "third row"))
	out.Reset()
	// Shorter text, and the thumb where the track was: each row is
	// written up to its mark.
	w.frame(frame(thumb, "first row", "second", "\x1b[3mthird\x1b[m"))
	moves := regexp.MustCompile("\x1b\\[[0-9;]*[CG`H]")
	written := strings.TrimPrefix(out.String(), "\x1b[H") // the frame starts at home
	if m := moves.FindAllString(written, -1); len(m) > 0 {
		t.Fatalf("the writer moved the cursor %d times (%q) in %q", len(m), m, out.String())
	}
	if !strings.Contains(out.String(), "first row") || !strings.Contains(out.String(), "second") {
		t.Fatalf("the second frame was not written: %q", out.String())
	}
}
