package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	gosync "sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/model"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/termtext"
)

// defaultHost is the address `lookout serve` listens on by default.
const defaultHost = "127.0.0.1:7777"

// clientFlags are the connection flags every client command shares.
type clientFlags struct {
	session string
	cred    credentialFlags
}

func (f *clientFlags) add(cmd *cobra.Command, session bool) {
	if session {
		cmd.Flags().StringVar(&f.session, "session", "", "session id (default: the host's most recently updated session)")
	}
	f.cred.register(cmd)
}

func (f *clientFlags) options(args []string) sync.Options {
	u := defaultHost
	switch {
	case len(args) > 0:
		u = args[0]
	default:
		// No URL: the host running on this machine (on --data, else on
		// any agent's default data directory), else the default address.
		if dir, running, err := runningLocalHost(f.cred.dataDir); err == nil {
			u = running
			if f.cred.dataDir == "" {
				f.cred.dataDir = dir
			}
		}
	}
	o := sync.Options{URL: u, SessionID: f.session, CacheDir: "-", ClientName: "lookout-cli"}
	f.cred.apply(&o)
	return o
}

// hostArg accepts zero or one URL argument.
func hostArg(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageErr(fmt.Errorf("%s takes at most one URL argument, got %d", cmd.Name(), len(args)))
	}
	return nil
}

const urlHelp = `URL names the host: ws://host:port/v1/ws, wss://..., http(s)://host:port,
or host:port (default: the host running on this machine, else ` + defaultHost + `).

` + tokenHelp + `

Exit codes: 0 success, 1 other failure, 2 usage (or a refused plain ws://
URL), 3 token refused, 4 unknown session, 5 host unreachable, 6 prompt
rejected or turn failed.`

// newClientCmds returns the non-interactive commands: watch, export, send,
// sessions.
func newClientCmds() []*cobra.Command {
	cmds := []*cobra.Command{newWatchCmd(), newExportCmd(), newSendCmd(), newSessionsCmd()}
	for _, c := range cmds {
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	}
	return cmds
}

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
			return follow(cmd.Context(), o, cmd.ErrOrStderr(), out.flush, func(s sync.Snapshot, _ *sync.Client) (bool, error) {
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

func newExportCmd() *cobra.Command {
	var f clientFlags
	var format string
	var untilIdle bool
	cmd := &cobra.Command{
		Use:   "export [URL]",
		Short: "Print a session's folded transcript",
		Long: `Fold a session's whole durable history and print the result once caught up.

--format json prints the canonical state encoding: one object whose "items"
array holds the item objects in transcript order, with the active turn,
queued turns, pending approvals, session state values and cursors.
--format markdown prints a readable transcript.
With --until-idle it waits until the session also has no active or queued
turn before printing.

` + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "markdown" && format != "md" {
				return usageErr(fmt.Errorf("--format must be json or markdown, not %q", format))
			}
			o := f.options(args)
			o.Replay = true
			var out []byte
			err := follow(cmd.Context(), o, cmd.ErrOrStderr(), nil, func(s sync.Snapshot, c *sync.Client) (bool, error) {
				if s.Freshness.State != sync.Live || (untilIdle && !isIdle(s)) {
					return false, nil
				}
				ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
				defer cancel()
				var dropped int
				if err := c.Inspect(ctx, func(st *model.State) {
					if dropped = st.Dropped(); dropped > 0 {
						return
					}
					if format == "json" {
						out = append(termtext.JSON(st.Encode()), '\n')
					} else {
						out = []byte(markdownTranscript(st))
					}
				}); err != nil {
					return true, err
				}
				if dropped > 0 {
					return true, fmt.Errorf("the session holds more than this client keeps in memory (%d items, %d MiB): %d of its oldest items were dropped, so the export would be incomplete", sync.DefaultMaxItems, sync.DefaultMaxBytes>>20, dropped)
				}
				return true, nil
			})
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&format, "format", "json", "json or markdown")
	cmd.Flags().BoolVar(&untilIdle, "until-idle", false, "wait until the session has no active or queued turn")
	return cmd
}

func newSendCmd() *cobra.Command {
	var f clientFlags
	var onApproval string
	var newSession bool
	seenApproval := map[string]bool{}
	cmd := &cobra.Command{
		Use:   "send [URL] TEXT",
		Short: "Submit a prompt and wait for its turn to settle",
		Long: `Submit TEXT as a prompt to a session (with a fresh commandId, retried with the
same commandId through backpressure and reconnects, so it never runs twice),
wait until its turn settles, and print the agent's messages of that turn.

A lone argument that looks like a host URL (ws://..., http(s)://...,
host:port) is refused (exit 2): the prompt is missing. To send such text,
name the URL first.

Exits 0 when the turn completes; 6 when the prompt is rejected, unqueued, or
its turn fails or is stopped; 5 when the host stays unreachable or the client
gives up sending.

With --new, send first creates a session on the host (run by the host's
agent) and prints its id alone on the first line of stderr.

While the session waits for a tool approval, send says so on stderr and
keeps waiting (--on-approval ask, the default), or answers it itself
(--on-approval approve or deny).

` + urlHelp,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usageErr(errors.New("send takes [URL] TEXT"))
			}
			if len(args) == 1 && looksLikeHostURL(args[0]) {
				// The prompt was forgotten: never send the URL as one.
				return usageErr(errors.New("send: its only argument is a host URL, and the prompt is missing: lookout send [URL] TEXT"))
			}
			switch onApproval {
			case "ask", "approve", "deny":
			default:
				return usageErr(fmt.Errorf("--on-approval is ask, approve or deny, not %q", onApproval))
			}
			if newSession && f.session != "" {
				return usageErr(errors.New("send takes --new or --session, not both"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			text := args[len(args)-1]
			if strings.TrimSpace(text) == "" {
				return usageErr(errors.New("send: TEXT is empty"))
			}
			o := f.options(args[:len(args)-1])
			if newSession {
				id, err := createSession(cmd.Context(), o)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.ErrOrStderr(), termtext.Line(id))
				o.SessionID = id
			}
			var cid, turnID string
			var result string
			err := follow(cmd.Context(), o, cmd.ErrOrStderr(), nil, func(s sync.Snapshot, c *sync.Client) (bool, error) {
				if cid == "" {
					cid = c.Submit(text)
					return false, nil
				}
				if s.View != nil {
					for _, a := range s.View.Approvals {
						if seenApproval[a.ApprovalID] {
							continue
						}
						seenApproval[a.ApprovalID] = true
						// The summary is what gets approved: shown whole.
						id, summary := termtext.Line(a.ApprovalID), termtext.VisibleLine(a.Summary)
						if onApproval == "ask" {
							fmt.Fprintf(cmd.ErrOrStderr(), "lookout: waiting for approval %s: %s (answer it in lookout attach, or use --on-approval)\n", id, summary)
							continue
						}
						fmt.Fprintf(cmd.ErrOrStderr(), "lookout: %s approval %s: %s\n", map[string]string{"approve": "approving", "deny": "denying"}[onApproval], id, summary)
						c.Respond(a.ApprovalID, onApproval)
					}
				}
				r, settled := c.Settlement(cid)
				if !settled {
					return false, nil
				}
				switch r.Reason {
				case model.RetiredJoined:
				case model.RetiredGaveUp:
					return true, &exitError{code: exitUnreachable, err: fmt.Errorf("gave up sending the prompt: %s", r.Detail)}
				case model.RetiredRejected:
					return true, &exitError{code: exitTurnFailed, err: fmt.Errorf("the host rejected the prompt: %s", r.Detail)}
				case model.RetiredUnqueued:
					return true, &exitError{code: exitTurnFailed, err: errors.New("the prompt was unqueued before it ran")}
				case model.RetiredLaunchFailed:
					msg := "the turn failed to launch"
					if r.Detail != "" {
						msg += ": " + r.Detail
					}
					return true, &exitError{code: exitTurnFailed, err: errors.New(msg)}
				default:
					return true, &exitError{code: exitTurnFailed, err: fmt.Errorf("the turn failed to launch (%s)", r.Reason)}
				}
				return turnOutcome(cmd.Context(), s, c, cid, r.ItemID, &turnID, &result)
			})
			if result != "" {
				fmt.Fprintln(cmd.OutOrStdout(), termtext.Text(result))
			}
			return err
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&onApproval, "on-approval", "ask", "what to do when a tool waits for approval: ask (wait for someone to answer), approve, or deny")
	cmd.Flags().BoolVar(&newSession, "new", false, "create a new session on the host first and send to it (its id goes to stderr)")
	return cmd
}

func newSessionsCmd() *cobra.Command {
	var f clientFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sessions [URL]",
		Short: "List the host's sessions",
		Long: "List the sessions a host holds, most recently updated first (the picker's order): id, status,\n" +
			"last update (\"5 min ago\", \"yesterday 09:12\"; --json has the host's RFC 3339 time) and title.\n\n" + urlHelp,
		Args: hostArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), 30*time.Second)
			defer cancel()
			ss, err := sync.ListSessions(ctx, f.options(args))
			if err != nil {
				return classifyListErr(err)
			}
			w := cmd.OutOrStdout()
			sync.SortSessions(ss) // newest first, as the picker lists them
			if asJSON {
				b, _ := json.Marshal(ss)
				_, err := fmt.Fprintf(w, "%s\n", termtext.JSON(b))
				return err
			}
			_, err = fmt.Fprint(w, sessionsTable(ss, time.Now()))
			return err
		},
	}
	f.add(cmd, false)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func classifyListErr(err error) error {
	var cr *sync.CredentialError
	if errors.As(err, &cr) {
		return &exitError{code: exitUsage, err: err}
	}
	var ce *sync.ConnectError
	if errors.As(err, &ce) {
		if ce.Refused && (ce.Status == 401 || ce.Status == 403) {
			return &exitError{code: exitAuth, err: err}
		}
		return &exitError{code: exitUnreachable, err: err}
	}
	return err
}

// follow runs a client until done says so (it is asked after every
// published change, whatever the freshness) or an unrecoverable condition: a persistent refusal, or a host
// that cannot be reached before the first connection. flush (optional) is
// called after every change. Every error the client records (a frame it
// could not fold, a refused command) is reported on errw as it happens,
// once each (reportErrors). Interrupt (SIGINT) ends it quietly.
func follow(parent context.Context, o sync.Options, errw io.Writer, flush func(), done func(sync.Snapshot, *sync.Client) (bool, error)) error {
	c, err := sync.New(o)
	if err != nil {
		return usageErr(err)
	}
	if parent == nil {
		parent = context.Background()
	}
	ctx, stop := signal.NotifyContext(parent, os.Interrupt)
	defer stop()
	runCtx, cancel := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = c.Run(runCtx)
	}()
	var seen uint64
	defer func() {
		cancel()
		<-ran
		if flush != nil {
			flush()
		}
		seen = reportErrors(errw, c.Current(), seen)
	}()
	for {
		s := c.Current()
		if flush != nil {
			flush()
		}
		seen = reportErrors(errw, s, seen)
		switch f := s.Freshness; {
		case f.State == sync.Error:
			return freshnessErr(f)
		case f.State == sync.Reconnecting && s.Durability == "":
			// Never connected: for a script, unreachable is final.
			return &exitError{code: exitUnreachable, err: errors.New(f.Err)}
		}
		if fin, err := done(s, c); fin || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-c.Updates():
		}
	}
}

// reportErrors writes the errors s recorded after the first seen to w,
// one line each ("lookout: client error: ..."; the text may quote the
// host, so it is one clean line, termtext.Line), and returns the new
// count seen.
func reportErrors(w io.Writer, s sync.Snapshot, seen uint64) uint64 {
	errs, lost := s.ErrorsSince(seen)
	if lost > 0 {
		fmt.Fprintf(w, "lookout: client error: %d more errors were recorded than can be shown\n", lost)
	}
	for _, e := range errs {
		fmt.Fprintf(w, "lookout: client error: %s\n", termtext.Line(e))
	}
	return max(seen, s.ErrorCount)
}

func freshnessErr(f sync.Freshness) error {
	code := exitFailure
	switch f.Reason {
	case sync.ReasonAuth:
		code = exitAuth
	case sync.ReasonNoSession:
		code = exitNoSession
	case sync.ReasonUnreachable, sync.ReasonEndpoint:
		code = exitUnreachable
	}
	return &exitError{code: code, err: errors.New(f.Err)}
}

// isIdle: caught up (live) with no active and no queued turn.
func isIdle(s sync.Snapshot) bool {
	return s.Freshness.State == sync.Live && s.View.ActiveTurn == nil && len(s.View.QueuedTurns) == 0
}

// lockedWriter serialises the client goroutine's writes with flushes.
type lockedWriter struct {
	mu gosync.Mutex
	w  *bufio.Writer
}

func (l *lockedWriter) line(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(b)
	l.w.WriteByte('\n')
}

func (l *lockedWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Flush()
}

// describeEvent is watch's readable line for one event. Texts are quoted
// (%q); the caller cleans the whole line with termtext.Line, since names,
// ids and raw params come from the host too.
func describeEvent(ev *model.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6d %-18s", ev.Seq, ev.Method)
	switch {
	case ev.Item != nil:
		fmt.Fprintf(&b, " %s %s r%d %s", ev.Item.Kind, ev.Item.ID, ev.Item.Revision, ev.Item.Status)
		if t := firstLine(ev.Item.Text()); t != "" {
			fmt.Fprintf(&b, " %q", t)
		}
	case ev.Method == model.MethodItemDelta:
		fmt.Fprintf(&b, " %s %s %q", ev.ItemID, ev.Field, ev.Delta)
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

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// turnOutcome decides send's end once its prompt joined the transcript
// (the userMessage itemID): done when the prompt's turn has ended, with
// the turn's agent messages in result and an *exitError for a turn that
// did not complete. The fold knows the outcome when it folded the turn's
// turn/completed. After a resynchronization it may not: a snapshot keeps
// no turn outcomes (and the userMessage may not be held). Then, once live,
// it asks the host (command/replay answers turnStatus); a host that does
// not say leaves the outcome unknown (exit 1). turnID carries the turn
// learnt from the host across calls.
func turnOutcome(parent context.Context, s sync.Snapshot, c *sync.Client, cid, itemID string, turnID *string, result *string) (bool, error) {
	ctx, cancel := context.WithTimeout(parent, 10*time.Second)
	defer cancel()
	var status string
	var terr *model.TurnError
	var ask bool
	if err := c.Inspect(ctx, func(st *model.State) {
		if it := st.Item(itemID); it != nil {
			*turnID = it.TurnID
		}
		if *turnID == "" {
			ask = true // the userMessage is not held: the host knows its turn
			return
		}
		if t := st.Turn(*turnID); t != nil && t.Status != "" {
			status, terr = t.Status, t.Error
			*result = turnMessages(st, *turnID)
			return
		}
		if a := st.ActiveTurn(); (a != nil && a.TurnID == *turnID) || queuedTurn(st, *turnID) {
			return // still running
		}
		ask = true // ended while the client resynchronized
	}); err != nil {
		return true, err
	}
	if ask {
		if s.Freshness.State != sync.Live {
			return false, nil // ask once caught up
		}
		ans, err := c.ReplayCommand(ctx, cid)
		if errors.Is(err, sync.ErrNotConnected) {
			return false, nil // the next connection asks again
		}
		if err != nil {
			return true, err
		}
		if *turnID == "" && ans.TurnID != "" {
			*turnID = ans.TurnID
			if ans.TurnStatus == "" {
				return false, nil // now known: the fold says whether it runs
			}
		}
		status, terr = ans.TurnStatus, ans.TurnError
		if err := c.Inspect(ctx, func(st *model.State) { *result = turnMessages(st, *turnID) }); err != nil {
			return true, err
		}
		if status == "" {
			return true, &exitError{code: exitFailure, err: errors.New("the turn ended while the client resynchronized, and the host does not say how: its final status is unknown")}
		}
	}
	if status == "" {
		return false, nil
	}
	if status != model.StatusCompleted {
		msg := "the turn ended " + status
		if terr != nil && terr.Message != "" {
			msg += ": " + terr.Message
		}
		return true, &exitError{code: exitTurnFailed, err: errors.New(msg)}
	}
	return true, nil
}

func queuedTurn(st *model.State, turnID string) bool {
	for _, q := range st.QueuedTurns() {
		if q.TurnID == turnID {
			return true
		}
	}
	return false
}

// turnMessages joins the agent messages of one turn.
func turnMessages(st *model.State, turnID string) string {
	var parts []string
	for _, it := range st.Items() {
		if it.TurnID == turnID && it.Kind == model.KindAgentMessage && it.Text() != "" {
			parts = append(parts, it.Text())
		}
	}
	return strings.Join(parts, "\n\n")
}
