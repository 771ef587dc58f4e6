package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/host"
	"github.com/lookout-sh/lookout/sync"
	"github.com/lookout-sh/lookout/themes"
	"github.com/lookout-sh/lookout/tui"
)

// uiFlags are the terminal UI's flags, shared by `lookout` and `lookout
// attach`.
type uiFlags struct {
	theme   string
	tail    int
	noMouse bool
	logFile string
	// serial is tui.Options.Serial: set only where the process runs no
	// host (`lookout attach`, or `lookout` attaching to the host another
	// process runs on its data directory; procs.go).
	serial func(on bool)
}

func (u *uiFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&u.theme, "theme", "auto", "colour theme: dark, light or auto (from the terminal background)")
	f.IntVar(&u.tail, "tail", 200, "items to load when the session opens; older ones load when you scroll to the top")
	f.BoolVar(&u.noMouse, "no-mouse", false, "start with the mouse released (native text selection; alt+m toggles)")
	f.StringVar(&u.logFile, "log", "", "append client diagnostics to this file (default: none)")
}

// check validates the flags before anything starts.
func (u *uiFlags) check() error {
	if _, err := themes.ByName(u.theme, true); err != nil {
		return usageErr(err)
	}
	if u.tail < 1 {
		return usageErr(errors.New("--tail must be at least 1"))
	}
	return nil
}

// logger opens the diagnostics log; the returned closer is never nil.
func (u *uiFlags) logger() (*slog.Logger, io.Closer, error) {
	if u.logFile == "" {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil), nil
	}
	f, err := os.OpenFile(u.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})), f, nil
}

// newAttachRootCmd is `lookout` itself: with no arguments it starts the
// embedded durable host with the demo agent on a random loopback port and
// attaches to the demo session through the real WebSocket.
func newAttachRootCmd() *cobra.Command {
	var ui uiFlags
	var agent agentFlags
	var dataDir string
	var pace time.Duration
	cmd := &cobra.Command{
		Use:   "lookout",
		Short: "Watch and steer coding-agent sessions from a terminal",
		Long: `Watch and steer coding-agent sessions from a terminal.

With no command, lookout starts its own durable session host (data under
the XDG state directory, a random loopback port) with the demo agent, and
opens the demo session. Type a prompt and press enter; words like "tool",
"warning" or "long" in a prompt make the demo agent show more (see
"lookout serve --help"). Press ? for every key.

With --agent codex, the embedded host runs the Codex CLI in the current
directory (or --cwd) instead: lookout opens a new Codex session, or offers
the Codex sessions this host already holds (ctrl+n in the picker starts a new
one). Codex uses your own configuration and login.

"lookout attach URL" attaches to another host; "lookout serve" runs one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := ui.check(); err != nil {
				return err
			}
			return runEmbedded(cmdContext(cmd), ui, dataDir, pace, agent)
		},
	}
	ui.register(cmd)
	agent.register(cmd)
	cmd.Flags().StringVar(&dataDir, "data", "", "data directory of the embedded host (default "+host.DefaultDataDir()+")")
	cmd.Flags().DurationVar(&pace, "pace", 40*time.Millisecond, "delay between the demo agent's stream steps")
	return cmd
}

// newAttachCmd is `lookout attach URL [--session ID]`.
func newAttachCmd() *cobra.Command {
	var ui uiFlags
	var session string
	var cred credentialFlags
	cmd := &cobra.Command{
		Use:   "attach [URL]",
		Short: "Attach to a session host",
		Long: `Attach to a session host and open one of its sessions.

URL is ws://host:port (or wss://, http(s)://, or a bare host:port; the path
defaults to /v1/ws). Without a URL, attach to the host running on this
machine on the data directory (--data): a "lookout serve" or another
"lookout". Without --session a picker lists the host's sessions (ctrl+n
there starts a new one); a host with no sessions gets a new one at once.

` + tokenHelp,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErr(fmt.Errorf("attach takes at most one URL, got %d arguments", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := ui.check(); err != nil {
				return err
			}
			var target string
			if len(args) == 1 {
				target = args[0]
			} else {
				dir, u, err := runningLocalHost(cred.dataDir)
				if err != nil {
					return usageErr(err)
				}
				target, cred.dataDir = u, dir
			}
			// Without a URL the user asked for the host on this machine,
			// wherever it listens next time (it restarts on a new port).
			opts := sync.Options{URL: target, SessionID: session, FollowLocalHost: len(args) == 0}
			cred.apply(&opts)
			ui.serial = serialProcs(os.Getenv("GOMAXPROCS"))
			// Every host takes session/create: a host with no sessions
			// gets a new one, and the picker offers ctrl+n.
			return runAttach(cmdContext(cmd), ui, opts, attachChoice{offerNew: true})
		},
	}
	ui.register(cmd)
	cmd.Flags().StringVar(&session, "session", "", "session id to open (default: choose from a list)")
	cred.register(cmd)
	return cmd
}

func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// runningLocalHost finds the host running on this machine: on dataDir
// when it is named, else on the first of the agents' default data
// directories that has one (the demo host's first).
func runningLocalHost(dataDir string) (dir, url string, err error) {
	dirs := []string{dataDir}
	if dataDir == "" {
		dirs = host.LocalDataDirs()
	}
	for _, d := range dirs {
		if u, err := host.RunningURL(d); err == nil {
			return d, u, nil
		}
	}
	where := dataDir
	if where == "" {
		where = host.DefaultDataDir()
	}
	return "", "", fmt.Errorf("no URL given and no host is running on %s: start one with \"lookout serve\" or \"lookout\", or name a URL", where)
}

// runEmbedded starts the durable host in-process and attaches to it. When
// another process already runs a host on the same data directory, it
// attaches to that host instead. The demo agent opens the demo session; a
// real agent opens a new session, or the picker when it has some already.
func runEmbedded(ctx context.Context, ui uiFlags, dataDir string, pace time.Duration, agent agentFlags) error {
	ho, err := agent.build(ctx)
	if err != nil {
		return err
	}
	if dataDir == "" {
		dataDir = agent.dataDir()
	}
	log, closer, err := ui.logger()
	if err != nil {
		return err
	}
	defer closer.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ho.Addr, ho.DataDir, ho.Pace, ho.Logger = "127.0.0.1:0", dataDir, pace, log
	ho.DemoSession = agent.isDemo()
	h, err := host.Start(ctx, ho)
	if errors.Is(err, host.ErrDataDirInUse) {
		// Another lookout (or lookout serve) already runs a host on this
		// data directory: attach to it instead of failing.
		if u, uerr := host.RunningURL(dataDir); uerr == nil {
			// DataDir, not TokenFile: its token goes only to the
			// address that host recorded, which u is. This process
			// runs no host after all: a client like lookout attach.
			ui.serial = serialProcs(os.Getenv("GOMAXPROCS"))
			// When that host's window quits, this one runs the host.
			stop := standby(ctx, ho, standbyRetry, log)
			defer stop()
			opts := sync.Options{URL: u, DataDir: dataDir, FollowLocalHost: true}
			return runAttach(ctx, ui, opts, attachChoice{offerNew: true})
		}
	}
	if err != nil {
		return fmt.Errorf("start the embedded host: %w", err)
	}
	defer h.Close()
	// The host in this process serves this window: while the user only
	// watches, its agent's stream, the host and the UI are one chain too
	// (procs.go), and one thread runs them for about a quarter less CPU
	// (docs/performance.md, "The whole stack, with each real agent").
	ui.serial = serialProcs(os.Getenv("GOMAXPROCS"))
	opts := sync.Options{
		URL: h.URL(), Token: h.Token(), SessionID: h.DefaultSessionID(),
		// The host is in-process and durable: a replica cache keyed by a
		// random port would only litter the cache directory.
		CacheDir: "-",
	}
	if agent.isDemo() {
		// The demo session first; ctrl+o opens the picker over this host,
		// where n starts another session with the demo agent.
		return runAttach(ctx, ui, opts, attachChoice{offerNew: true, hostName: "embedded host " + h.Addr()})
	}
	return runAttach(ctx, ui, opts, attachChoice{offerNew: true, hostName: agent.name + " on " + h.Addr()})
}

// attachChoice says how runAttach picks a session when none is named.
type attachChoice struct {
	// offerNew lets the user start a new session from the picker, and
	// starts one at once on a host that has none.
	offerNew bool
	// hostName names the host in the UI; "" uses the URL's host:port.
	hostName string
}

// runAttach attaches to a host, offering a picker when no session is
// named. The UI can ask for the picker again (ctrl+o: another session, or
// the named one does not exist); the draft goes along.
func runAttach(ctx context.Context, ui uiFlags, opts sync.Options, choice attachChoice) error {
	log, closer, err := ui.logger()
	if err != nil {
		return err
	}
	defer closer.Close()
	norm, err := sync.NormalizeURL(opts.URL)
	if err != nil {
		return usageErr(err)
	}
	hostName := choice.hostName
	if hostName == "" {
		hostName = norm
		if u, err := url.Parse(norm); err == nil {
			hostName = u.Host
		}
	}
	var draft string
	for {
		if opts.SessionID == "" {
			id, err := chooseSession(ctx, ui, opts, choice, hostName)
			if err != nil || id == "" {
				return err
			}
			opts.SessionID = id
		}
		res, err := runUI(ctx, ui, opts, hostName, log, uiExtras{offerSessions: true, draft: draft})
		if err != nil || !res.switchSession && !res.newSession {
			return err
		}
		opts.SessionID, draft = "", res.draft
		if res.newSession {
			// /new: a session of the same host, so of the same agent.
			if opts.SessionID, err = createSession(ctx, opts); err != nil {
				return err
			}
		}
	}
}

// chooseSession lists the host's sessions and lets the user pick one (or
// start one, choice.offerNew). "" with no error: the user cancelled.
func chooseSession(ctx context.Context, ui uiFlags, opts sync.Options, choice attachChoice, hostName string) (string, error) {
	lctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	sessions, err := sync.ListSessions(lctx, opts)
	cancel()
	if err != nil {
		// Same exit codes as `lookout sessions`: 3 refused, 5 unreachable.
		return "", classifyListErr(fmt.Errorf("list the host's sessions: %w", err))
	}
	switch {
	case len(sessions) == 0 && choice.offerNew:
		return createSession(ctx, opts)
	case len(sessions) == 0:
		return "", errors.New("the host has no sessions")
	}
	p, err := tui.NewPicker(sessions, hostName, ui.theme)
	if err != nil {
		return "", err
	}
	if choice.offerNew {
		p.OfferNew()
	}
	p.OfferDelete(func(id string) error {
		dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return sync.DeleteSession(dctx, opts, id)
	})
	if _, err := tea.NewProgram(p, tea.WithContext(ctx)).Run(); err != nil {
		return "", err
	}
	if p.NewChosen() {
		return createSession(ctx, opts)
	}
	return p.Chosen(), nil
}

// createSession creates a session on the host opts names.
func createSession(ctx context.Context, opts sync.Options) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	id, err := sync.CreateSession(cctx, opts, "")
	if err != nil {
		return "", classifyListErr(fmt.Errorf("create a session: %w", err))
	}
	return id, nil
}

// uiExtras are what a session's UI takes beyond the flags.
type uiExtras struct {
	offerSessions bool   // ctrl+o may leave for the picker
	draft         string // the composer's text at start
}

// uiResult is how a session's UI ended.
type uiResult struct {
	switchSession bool   // the user asked for the picker
	newSession    bool   // the user asked for a new session (/new)
	draft         string // the composer's text at the end
}

// runUI connects sync and runs the terminal UI until the user quits (or
// asks for another session).
func runUI(ctx context.Context, ui uiFlags, opts sync.Options, hostName string, log *slog.Logger, x uiExtras) (uiResult, error) {
	opts.Deltas = true
	opts.ClientName = "lookout"
	opts.Logger = log
	opts.SubscribeLimit = ui.tail
	c, err := sync.New(opts)
	if err != nil {
		return uiResult{}, credentialExit(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = c.Run(runCtx) // what went wrong is the UI's to show
	}()
	defer func() {
		stop()
		<-ran // Run writes the replica cache before it returns
	}()
	m, err := tui.New(tui.Options{Source: c, Theme: ui.theme, Host: hostName, SessionID: opts.SessionID, NoMouse: ui.noMouse,
		Notify:        tui.NotifyStyleFromEnv(os.Getenv),
		OfferSessions: x.offerSessions, Draft: x.draft, Serial: ui.serial})
	if err != nil {
		return uiResult{}, err
	}
	if ui.serial != nil {
		defer ui.serial(false) // the UI may end while its user watched
	}
	_, err = tea.NewProgram(m, tea.WithContext(ctx)).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return uiResult{}, nil
	}
	return uiResult{switchSession: m.SwitchSession(), newSession: m.NewSessionAsked(), draft: m.Draft()}, err
}
