package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	gosync "sync"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/render"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

func newWatchCmd() *cobra.Command {
	var f clientFlags
	var asJSON, untilIdle, deltas bool
	cmd := &cobra.Command{
		Use:   "watch [URL]",
		Short: "Print a session's events as they are folded",
		Long: `Follow a session and print every event the client folds, in fold order:
its whole durable history first (read page by page), then live events.

With --json each event is one line {"method":...,"params":...} (the paged-read
element shape, params verbatim); without it, one readable line per event.
With --until-idle the command exits 0 once it has caught up and the session
has no active or queued turn; otherwise it follows until interrupted,
reconnecting as needed.

` + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := f.options(args)
			o.Replay, o.Deltas = true, deltas
			out := &lockedWriter{w: bufio.NewWriter(cmd.OutOrStdout())}
			o.OnEvent = func(ev *model.Event) {
				if asJSON {
					b, _ := json.Marshal(ev.Element())
					out.line(termtext.JSON(b))
					return
				}
				out.line([]byte(termtext.Line(describeEvent(ev))))
			}
			defer out.flush()
			return follow(cmd.Context(), o, cmd.ErrOrStderr(), out.flush, func(s sync.Picture, _ *sync.Client) (bool, error) {
				return untilIdle && isIdle(s), nil
			})
		},
	}
	f.add(cmd, true)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each event as one JSON line {method, params}")
	cmd.Flags().BoolVar(&untilIdle, "until-idle", false, "exit once caught up and the session is idle")
	cmd.Flags().BoolVar(&deltas, "deltas", true, "include streamed item/delta events")
	return cmd
}

// lockedWriter serialises the client goroutine's writes with flushes.
type lockedWriter struct {
	mu gosync.Mutex
	w  *bufio.Writer
}

func (l *lockedWriter) line(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A bufio.Writer keeps its first error and reports it on Flush;
	// watch stops on its own terms, not on a failed write.
	_, _ = l.w.Write(b)
	_ = l.w.WriteByte('\n')
}

func (l *lockedWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Flush()
}

// describeEvent is watch's readable line for one event. Texts are quoted
// (%q); what was cut says so in brackets after it: an item's fields the
// host cut, a delta this client cut at its bound. The caller cleans the
// whole line with termtext.Line, since names, ids and raw params come
// from the host too.
func describeEvent(ev *model.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6d %-18s", ev.Seq, ev.Method)
	switch {
	case ev.Item != nil:
		fmt.Fprintf(&b, " %s %s r%d %s", ev.Item.Kind, ev.Item.ID, ev.Item.Revision, ev.Item.Status)
		if t := firstLine(ev.Item.Text()); t != "" {
			fmt.Fprintf(&b, " %q", t)
		}
		if a, ok := ev.Item.AnswerOf(); ok && ev.Item.Kind == model.KindQuestion {
			fmt.Fprintf(&b, " answer %q", render.QuestionAnswerText(a))
		}
		if ev.Item.Kind == model.KindPlan {
			p := ev.Item.PlanOf()
			fmt.Fprintf(&b, " %s", render.PlanProgress(p))
			if i := p.Current(); i >= 0 {
				fmt.Fprintf(&b, " %s %q", p.Steps[i].Status, p.Steps[i].Text)
			}
		}
		for _, n := range render.HostCutNotes(ev.Item) {
			fmt.Fprintf(&b, " [%s]", n)
		}
	case ev.Method == model.MethodItemDelta:
		fmt.Fprintf(&b, " %s %s %q", ev.ItemID, ev.Field, ev.Delta)
		for _, n := range render.ClientCutNotes(ev.Cut) {
			fmt.Fprintf(&b, " [%s]", n)
		}
	case ev.TurnID != "":
		fmt.Fprintf(&b, " turn %s", ev.TurnID)
		if ev.Status != "" {
			fmt.Fprintf(&b, " %s", ev.Status)
		}
		if ev.Text != "" {
			fmt.Fprintf(&b, " %q", firstLine(ev.Text))
		}
	default:
		fmt.Fprintf(&b, " %s", ev.Params)
	}
	return b.String()
}

// firstLineMax is how many bytes of a text watch's readable line quotes.
const firstLineMax = 80

// firstLine is the first line of s, cut to at most firstLineMax bytes on a
// rune boundary, with "…" marking a cut.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) <= firstLineMax {
		return s
	}
	cut := firstLineMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
