package tui

import (
	"regexp"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lookout-sh/lookout/keymap"
	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
	"github.com/lookout-sh/lookout/themes"
)

// Diagnostics are what the session and the connection reported that went
// wrong: model-request warnings (the host's, transient: the fold drops
// them when their turn ends), turns that failed (their error code and
// message; the transcript also holds the host's error item), errors this
// client recorded (frames it could not fold, refused commands) and
// connection errors (what the freshness banner cut short). The UI keeps
// every one it saw, with the time it saw it, for the diagnostics view.

// Diagnostic kinds.
const (
	diagWarning    = "warning"    // a model-request warning from the host
	diagTurn       = "turn"       // a turn that ended failed
	diagClient     = "client"     // an error this client recorded (sync.Picture.Errors)
	diagConnection = "connection" // a connection or session error (the banner's)
)

// maxDiagnostics bounds the log; the oldest entries go first.
const maxDiagnostics = 500

// diagnostic is one entry of the log.
type diagnostic struct {
	at         time.Time
	kind, code string
	msg        string
}

// diagLog collects diagnostics from successive snapshots, each once.
type diagLog struct {
	entries  []diagnostic
	errSeen  uint64          // sync errors seen (Snapshot.ErrorCount)
	warnSeen map[string]bool // warnings seen, by warnKey
	warnKeys []string        // warnSeen's keys, oldest first (bounded)
	lastConn string          // the last connection error logged
	turnSeen string          // the last failed turn logged
	errors   int             // entries of kind client or connection
}

// warnKey identifies one warning event.
func warnKey(w model.Warning) string {
	return itoa(int(w.Seq)) + "|" + w.TurnID + "|" + w.Code + "|" + itoa(w.Attempt) + "|" + w.Message
}

// observe logs what snap shows that was not logged yet, at now.
func (l *diagLog) observe(snap sync.Picture, now time.Time) {
	if v := snap.View; v != nil {
		for _, w := range v.Warnings {
			k := warnKey(w)
			if l.warnSeen[k] {
				continue
			}
			if l.warnSeen == nil {
				l.warnSeen = map[string]bool{}
			}
			l.warnSeen[k] = true
			l.warnKeys = append(l.warnKeys, k)
			if len(l.warnKeys) > 4*maxDiagnostics {
				delete(l.warnSeen, l.warnKeys[0])
				l.warnKeys = l.warnKeys[1:]
			}
			code := w.Code
			if code == "" {
				code = w.RequestKind
			}
			l.add(diagnostic{at: now, kind: diagWarning, code: code, msg: warningText(w)})
		}
		l.observeTurn(v.LastTurn, now)
	}
	if snap.ErrorCount < uint64(len(snap.Errors)) {
		snap.ErrorCount = uint64(len(snap.Errors)) // a source that does not count
	}
	errs, lost := snap.ErrorsSince(l.errSeen)
	l.errSeen = max(l.errSeen, snap.ErrorCount)
	if lost > 0 {
		l.add(diagnostic{at: now, kind: diagClient, msg: itoa(int(lost)) + " more errors were recorded than the client keeps"})
	}
	for _, e := range errs {
		code, rest := splitCode(e)
		l.add(diagnostic{at: now, kind: diagClient, code: code, msg: rest})
	}
	if f := snap.Freshness; f.Err != "" && f.Err != l.lastConn {
		l.lastConn = f.Err
		l.add(diagnostic{at: now, kind: diagConnection, code: f.Reason, msg: f.Err})
	} else if f.Err == "" && f.State == sync.Live {
		l.lastConn = ""
	}
}

// observeTurn logs the last turn once when it failed, with its error.
func (l *diagLog) observeTurn(t *model.TurnRecord, now time.Time) {
	if t == nil || t.Status != model.StatusFailed || t.TurnID == l.turnSeen {
		return
	}
	l.turnSeen = t.TurnID
	d := diagnostic{at: now, kind: diagTurn, msg: "the turn failed"}
	if e := t.Error; e != nil {
		d.code = e.Code
		if e.Message != "" {
			d.msg = "the turn failed: " + e.Message
		}
	}
	l.add(d)
}

func (l *diagLog) add(d diagnostic) {
	if d.kind != diagWarning {
		l.errors++
	}
	l.entries = append(l.entries, d)
	if n := len(l.entries) - maxDiagnostics; n > 0 {
		for _, e := range l.entries[:n] {
			if e.kind != diagWarning {
				l.errors--
			}
		}
		l.entries = append([]diagnostic(nil), l.entries[n:]...)
	}
}

// codePrefix is an error's leading code: a lower-case identifier (with _
// or /) followed by ": " or " in ".
var codePrefix = regexp.MustCompile(`^([a-z][a-z0-9_]*(?:/[a-z][a-zA-Z0-9_]*)?)(?:: | in )`)

// splitCode splits a client error into its code and the rest
// ("unknown_item in item/delta …" → "unknown_item", "in item/delta …").
func splitCode(s string) (code, rest string) {
	m := codePrefix.FindStringSubmatch(s)
	if m == nil || !strings.ContainsAny(m[1], "_/") {
		return "", s
	}
	rest = strings.TrimPrefix(s[len(m[1]):], ": ")
	return m[1], strings.TrimLeft(rest, " ")
}

// diagnosticsTitle is the view's first line.
func diagnosticsTitle(t themes.Theme, km keymap.KeyMap, n int) string {
	what := itoa(n) + " entries"
	if n == 1 {
		what = "1 entry"
	}
	return " " + t.AgentLabel.Render("Diagnostics") + t.Muted.Render(" · "+what+" · esc/q/"+km.Global.Diagnostics.Help().Key+" closes")
}

// diagnosticsBody lays the log out, oldest first: time, kind, code and
// the whole message, wrapped. Wide screens put the message in a column
// beside the others; narrow ones under them. Every text may come from
// the host: one clean line before wrapping (termtext.Line).
func diagnosticsBody(t themes.Theme, entries []diagnostic, now time.Time, width int) []string {
	if len(entries) == 0 {
		return []string{"  " + t.Muted.Render("No warnings or errors so far. Model-request warnings, failed turns,"),
			"  " + t.Muted.Render("errors this client recorded and connection errors show here.")}
	}
	codeW := 1
	for _, e := range entries {
		codeW = max(codeW, min(24, ansi.StringWidth(termtext.Line(e.code))))
	}
	const timeW, kindW = 8, 10
	msgX := 1 + timeW + 2 + kindW + 2 + codeW + 2
	wide := width-msgX >= 40
	var out []string
	for _, e := range entries {
		code := termtext.Line(e.code)
		if code == "" {
			code = "—"
		}
		st := t.Warning
		if e.kind != diagWarning {
			st = t.Error
		}
		head := " " + t.Muted.Render(e.at.In(now.Location()).Format("15:04:05")) + "  " +
			st.Render(fitCell(e.kind, kindW)) + "  " + t.Text.Render(fitCell(code, codeW)) + "  "
		msg := termtext.Line(e.msg)
		if wide {
			for i, l := range strings.Split(ansi.Wrap(msg, width-msgX, " "), "\n") {
				if i == 0 {
					out = append(out, head+t.Help.Render(l))
				} else {
					out = append(out, blank(msgX)+t.Help.Render(l))
				}
			}
			continue
		}
		out = append(out, strings.TrimRight(head, " "))
		for _, l := range strings.Split(ansi.Wrap(msg, max(8, width-4), " "), "\n") {
			out = append(out, "    "+t.Help.Render(l))
		}
	}
	return out
}

// diagnosticsCount is the status bar's count ("⚠ 3 diagnostics"), "" when
// there is none.
func diagnosticsCount(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "⚠ 1 diagnostic"
	}
	return "⚠ " + itoa(n) + " diagnostics"
}
