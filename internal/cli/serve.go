package cli

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/lookout-sh/lookout/host"
)

// newServeCmd is `lookout serve`: the standalone reference host.
func newServeCmd() *cobra.Command {
	var opts host.Options
	var agent agentFlags
	var verbose bool
	var memLimit int64
	var bench benchFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run a session host with the demo agent or a real one (--agent codex, opencode)",
		Long:  serveLong(),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, port, err := net.SplitHostPort(opts.Addr); err != nil || port == "" {
				return usageErr(fmt.Errorf("--addr must be host:port, not %q", opts.Addr))
			}
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			opts.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
			if memLimit > 0 && os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(memLimit << 20)
			}
			parent := cmd.Context()
			if parent == nil {
				parent = context.Background()
			}
			ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
			defer stop()
			ao, err := agent.build(ctx)
			if err != nil {
				return err
			}
			opts.Agent, opts.AgentImpl = ao.Agent, ao.AgentImpl
			if bench.file != "" && !agent.isDemo() {
				return usageErr(fmt.Errorf("--bench-stream replaces the agent: drop --agent %s", agent.name))
			}
			if err := bench.apply(&opts, cmd.OutOrStdout()); err != nil {
				return err
			}
			if !agent.isDemo() {
				opts.DemoSession = false
				if opts.DataDir == "" {
					opts.DataDir = agent.dataDir()
				}
			}
			if opts.Ephemeral && opts.DataDir == "" && !opts.NoAuth {
				// The token still lives in the data directory, so that a
				// client on this machine finds it where it always does.
				opts.DataDir = host.DefaultDataDir()
			}
			if opts.Journal != "" && opts.FleetHostID == "" && !opts.Ephemeral {
				// A host on a shared journal is a member of its fleet.
				if opts.FleetHostID, err = host.FleetHostID(cmp.Or(opts.DataDir, host.DefaultDataDir())); err != nil {
					return err
				}
			}
			h, err := host.Start(ctx, opts)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if !h.TLS() && !host.IsLoopback(opts.Addr) {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+host.PlaintextWarning(opts.Addr))
			}
			fmt.Fprintf(out, "lookout host listening on %s (%s)\n", h.URL(), h.Durability())
			if h.DataDir() != "" {
				fmt.Fprintf(out, "data directory: %s\n", h.DataDir())
			}
			if opts.FleetHostID != "" && !opts.Ephemeral {
				fmt.Fprintf(out, "fleet host: %s\n", opts.FleetHostID)
			}
			if !opts.NoAuth {
				switch {
				case h.DataDir() != "" && opts.Ephemeral:
					// No address is recorded, so clients do not pick the
					// token file up by themselves (docs/sync.md).
					fmt.Fprintf(out, "token: %s (clients: --token-file %s)\n", host.TokenPath(h.DataDir()), host.TokenPath(h.DataDir()))
				case h.DataDir() != "":
					fmt.Fprintf(out, "token: %s\n", host.TokenPath(h.DataDir()))
				default:
					fmt.Fprintf(out, "token: %s\n", h.Token())
				}
			} else {
				fmt.Fprintln(out, "authentication disabled (--no-auth)")
			}
			if sid := h.DefaultSessionID(); sid != "" {
				fmt.Fprintf(out, "demo session: %s\n", sid)
			}
			if bench.file != "" {
				sid, err := h.CreateSession("bench")
				if err != nil {
					h.Close()
					return err
				}
				fmt.Fprintf(out, "bench session: %s\n", sid)
			}
			<-ctx.Done()
			fmt.Fprintln(out, "shutting down")
			return h.Close()
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Addr, "addr", host.DefaultAddr, "listen address (host:port); 127.0.0.1:0 picks a free port")
	f.StringVar(&opts.DataDir, "data", "", "data directory for the journal and token; an ephemeral host keeps only its token there (default "+host.DefaultDataDir()+")")
	f.BoolVar(&opts.Ephemeral, "ephemeral", false, "keep sessions in memory only (nothing survives the process)")
	f.BoolVar(&opts.NoAuth, "no-auth", false, "serve without a bearer token (refused unless --addr is loopback)")
	f.DurationVar(&opts.Pace, "pace", 40*time.Millisecond, "delay between the demo agent's stream steps (0 = instant)")
	f.DurationVar(&opts.Latency, "latency", 0, "delay every answer by this much, to simulate a slow network (0 = off)")
	f.BoolVar(&opts.DemoSession, "demo-session", true, "create a demo session with a short history on first start")
	f.StringVar(&opts.TLSCert, "tls-cert", "", "PEM certificate (chain) to serve wss:// with; needs --tls-key")
	f.StringVar(&opts.TLSKey, "tls-key", "", "PEM private key of --tls-cert")
	f.BoolVar(&opts.SyncFull, "sync-full", false, "fsync every journal commit (survives power loss, slower)")
	f.StringVar(&opts.Journal, "journal", "", "keep the journal in NATS JetStream at these URLs (nats://host:4222[,more]; tls:// for TLS) instead of SQLite (docs/fleet.md)")
	f.StringVar(&opts.NATSCreds, "nats-creds", "", "NATS credentials file for --journal")
	f.BoolVar(&opts.NATSInsecurePlaintext, "nats-insecure-plaintext", false, "let --journal reach a NATS server on another machine without TLS (journal contents cross the network in the clear)")
	f.StringVar(&opts.JournalNamespace, "journal-namespace", "", "with --journal: the namespace of the stream and buckets (letters, digits, '-' and '_'; default "+host.DefaultJournalNamespace+"); hosts of one fleet share it")
	f.IntVar(&opts.JournalReplicas, "journal-replicas", 1, "with --journal: the replicas of the stream and buckets this host creates (3 on a 3-node cluster); ones that exist are used as they are")
	f.DurationVar(&opts.FleetLeaseTTL, "fleet-lease-ttl", 0, "with --journal: how long this host stays the writer of its sessions without a heartbeat (default 15s); every host of a fleet should use one value")
	f.StringVar(&opts.FleetHostID, "fleet-host", "", "with --journal: this host's id in the fleet sharing the journal; it writes only the sessions whose lease it takes (default: an id made once and kept in <data>/fleet-host-id; docs/fleet.md)")
	f.IntVar(&opts.MaxConns, "max-conns", host.DefaultMaxConns, "most connections served at once; more are answered 503")
	f.Int64Var(&memLimit, "memory-limit", host.DefaultMemoryLimit>>20, "Go soft memory limit, in MiB (0: none; GOMEMLIMIT, when set, wins): the collector works harder near it, so bursts do not double the host's memory")
	f.StringVar(&opts.NotifyCmd, "notify-cmd", "", "run this command (sh -c) when a session needs its user and nobody looks at it: an approval waits, a turn failed; LOOKOUT_SESSION, LOOKOUT_TITLE, LOOKOUT_REASON, LOOKOUT_TEXT and LOOKOUT_COUNT in its environment; at most one a session a minute")
	f.StringVar(&opts.NotifyURL, "notify-url", "", "post the same notices to this URL, in ntfy's form (the text as the body, Title and Tags headers)")
	f.BoolVar(&verbose, "verbose", false, "log debug detail")
	agent.register(cmd)
	bench.register(f)
	return cmd
}

func serveLong() string {
	var b strings.Builder
	b.WriteString(`Run the reference session host: a WebSocket JSON-RPC server (protocol 1,
path /v1/ws) with a scripted demo agent.

Durable by default: events are journaled in SQLite (WAL) in the data
directory, and a restart after a crash appends host-death terminals for
whatever was left open. A bearer token is created on first start in
<data>/token (mode 0600); clients send it as "Authorization: Bearer T" or
"?token=T".

Agents (--agent): ` + strings.Join(agentNames, ", ") + `. demo, the default, is
scripted; the others run a real agent (see below). Each real agent keeps
its own data directory, <default data>/agents/NAME, unless --data says
otherwise.

Demo agent scenarios: every prompt gets a streamed reasoning summary and a
markdown answer. Keywords in the prompt add scenarios:
`)
	for _, s := range host.DemoScenarios {
		fmt.Fprintf(&b, "  %-15s %s\n", s[0], s[1])
	}
	b.WriteString(agentsHelp)
	b.WriteString("\nSee docs/host.md for durability, limits and security, and docs/agents.md\nfor the agents.")
	return b.String()
}
