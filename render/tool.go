package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/termtext"
)

// Tool card bounds when collapsed.
const (
	toolTailLines  = 8 // output (and streaming input) lines shown
	toolInputLines = 4 // parsed input lines shown
)

// toolState is how a tool call's status is drawn in its card header.
type toolState struct {
	icon  string
	label string
	style lipgloss.Style
}

func (r *Renderer) toolState(it *model.Item, o ItemOptions) toolState {
	t := r.theme
	code, hasCode := it.ExitCode()
	exit := ""
	if hasCode {
		exit = " · exit " + strconv.FormatInt(code, 10)
	}
	switch it.Status {
	case model.StatusInputStreaming:
		return toolState{spin(o, "…"), "preparing input", t.Muted}
	case model.StatusReady:
		return toolState{"○", "ready", t.Muted}
	case model.StatusWaitingUser:
		return toolState{"?", "waiting for approval", t.Warning}
	case model.StatusRunning:
		return toolState{spin(o, "●"), "running", t.Accent}
	case model.StatusCompleted:
		if hasCode && code != 0 {
			return toolState{"✗", "completed" + exit, t.Error}
		}
		if hasCode {
			return toolState{"✓", "exit 0", t.Success}
		}
		return toolState{"✓", "completed", t.Success}
	case model.StatusFailed:
		return toolState{"✗", "failed" + exit, t.Error}
	case model.StatusStopped:
		return toolState{"■", "stopped" + exit, t.Warning}
	}
	st := it.Status
	switch st {
	case "":
		st = "pending"
	case model.StatusInProgress:
		st = "in progress"
	}
	if live(it) {
		return toolState{spin(o, "●"), st, t.Muted}
	}
	return toolState{"●", st, t.Muted}
}

// toolCall renders a tool call as a card that follows its state machine:
// the header names the tool and its state (a spinner while input streams
// or the tool runs, the exit code once it ended); the body shows the input
// (streaming text, or the parsed command), the tail of the output (all of
// it when expanded), and the error of a failed call; notes for hidden
// lines, host-truncated fields and abnormal ends close the card.
func (r *Renderer) toolCall(it *model.Item, cw int, o ItemOptions) []string {
	t := r.theme
	st := r.toolState(it, o)
	if st.icon == "" || it.TerminalUnknown {
		st.icon = "?"
	}
	name := it.ToolName()
	if name == "" {
		name = "tool"
	}
	boxed := cw >= 10
	top, side, bottom := "", "", ""
	bw := cw
	if boxed {
		top, side, bottom = t.ToolBorder.Render("╭─")+" ", t.ToolBorder.Render("│")+" ", t.ToolBorder.Render("╰─")
		bw = cw - 2
	}
	header := top + st.style.Render(st.icon) + " " + t.ToolName.Render(termtext.VisibleLine(name)) +
		t.Muted.Render(" · ") + st.style.Render(st.label)
	lines := []string{clamp(header, cw)}
	body := func(style lipgloss.Style, ls []string) {
		for _, l := range ls {
			if l == "" {
				lines = append(lines, strings.TrimRight(side, " "))
				continue
			}
			lines = append(lines, side+style.Render(l))
		}
	}
	hiddenNote := func(n int, what string) {
		if n > 0 {
			body(t.Muted, wrapPlain("… "+plural(n, what), bw))
		}
	}

	// Input: the streaming text, or the parsed input once there is one.
	// It is what the user approves, so every character of it shows
	// (termtext.Visible): a CR or an escape sequence cannot hide a part.
	if it.Status == model.StatusInputStreaming || !it.Has("input") {
		if in := readableJSON(it.InputText()); in != "" {
			shown, hidden := tailWrapped(in, bw, toolTailLines, o.Expanded, termtext.Visible)
			hiddenNote(hidden, "earlier input line")
			body(t.Code, shown)
		}
	} else if in := toolInput(it); in != "" {
		shown, hidden := headWrapped(in, bw, toolInputLines, o.Expanded, termtext.Visible)
		body(t.Code, shown)
		hiddenNote(hidden, "more input line")
	}

	// Output: its tail unless expanded. A bare CR keeps its progress-bar
	// meaning here (termtext.Text).
	if out := it.Output(); out != "" {
		shown, hidden := tailWrapped(out, bw, toolTailLines, o.Expanded, termtext.Text)
		hiddenNote(hidden, "earlier output line")
		body(t.Text, shown)
	}

	// Error.
	if msg := it.ErrorMessage(); msg != "" {
		body(t.Error, wrapPlain(termtext.Text(msg), bw))
	}

	// Notes: host-truncated fields and abnormal ends, the last one on the
	// card's closing line.
	notes := annotationTexts(it)
	if !boxed {
		for _, n := range notes {
			lines = append(lines, styleLines(t.Warning, wrapPlain(n, cw))...)
		}
		return lines
	}
	if len(notes) == 0 {
		return append(lines, bottom)
	}
	for _, n := range notes[:len(notes)-1] {
		body(t.Warning, wrapPlain(n, bw))
	}
	last := styleLines(t.Warning, wrapPlain(notes[len(notes)-1], cw-3))
	lines = append(lines, bottom+" "+last[0])
	for _, l := range last[1:] {
		lines = append(lines, "   "+l)
	}
	return lines
}

// tailWrapped makes s safe with clean (termtext.Text or Visible), wraps
// it to width and, unless all, keeps only the last n wrapped lines. Only
// the last n source lines are cleaned and wrapped when cut, so the cost
// follows the tail, not the whole text. hidden counts the source and
// wrapped lines left out.
func tailWrapped(s string, width, n int, all bool, clean func(string) string) (shown []string, hidden int) {
	if all {
		return wrapPlain(clean(strings.TrimRight(s, "\n")), width), 0
	}
	tail, skipped := tailLines(s, n)
	if limit := n*width*4 + 64; len(tail) > limit {
		// A huge last line: wrap only its end, which is all that shows.
		cut := len(tail) - limit
		for cut < len(tail) && !utf8.RuneStart(tail[cut]) {
			cut++
		}
		tail = "…" + tail[cut:]
	}
	shown = wrapPlain(clean(tail), width)
	if len(shown) > n {
		skipped += len(shown) - n
		shown = shown[len(shown)-n:]
	}
	return shown, skipped
}

// headWrapped makes s safe with clean (termtext.Text or Visible), wraps
// it to width and, unless all, keeps only the first n wrapped lines,
// cleaning and wrapping no more of s than can show. hidden counts the
// source and wrapped lines left out.
func headWrapped(s string, width, n int, all bool, clean func(string) string) (shown []string, hidden int) {
	s = strings.TrimRight(s, "\n")
	if all {
		return wrapPlain(clean(s), width), 0
	}
	head, rest := s, ""
	end := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			end = len(s)
			break
		}
		end += j + 1
	}
	if end < len(s) {
		head, rest = strings.TrimSuffix(s[:end], "\n"), s[end:]
		hidden = strings.Count(rest, "\n") + 1
	}
	if limit := n*width*4 + 64; len(head) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(head[cut]) {
			cut--
		}
		head = head[:cut] + "…"
	}
	shown = wrapPlain(clean(head), width)
	if len(shown) > n {
		hidden += len(shown) - n
		shown = shown[:n]
	}
	return shown, hidden
}

// toolInput is the display form of a parsed tool input: "$ <command>" for
// a shell-like input with a command string, otherwise indented JSON.
func toolInput(it *model.Item) string {
	raw := it.Field("input")
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"command", "cmd"} {
			var s string
			if v, ok := m[k]; ok && json.Unmarshal(v, &s) == nil && s != "" {
				if len(m) == 1 {
					return "$ " + s
				}
				rest := make(map[string]json.RawMessage, len(m)-1)
				for kk, vv := range m {
					if kk != k {
						rest[kk] = vv
					}
				}
				extra, _ := json.Marshal(rest)
				return "$ " + s + "\n" + readableJSON(string(extra))
			}
		}
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return readableJSON(b.String())
}

// plural formats "1 line" / "3 lines".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
