package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/embed"
	"github.com/memdir/memdir/mcpserver"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/search"
)

func newMCPCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve this project's memory to agents over MCP (stdio)",
		Long: `Run a Model Context Protocol server on standard input and output, for an
agent to start as a subprocess. It serves the memory of the project of its
working directory (or --cwd, or the memory directory --dir names); when the
agent sends roots and neither flag is given, the first file:// root is the
project. Standard output carries protocol messages only; logs go to
standard error.

Tools: memory_search, memory_show, memory_add, memory_forget, memory_list,
memory_timeline, memory_stats. Resources: memdir://index (MEMORY.md as an
agent loads it) and memdir://topic/{file}. Writes follow the same rules and
take the same lock as the CLI; every call reads the files afresh.

Examples:
  memdir mcp
  claude mcp add memdir -- memdir mcp
  memdir mcp --cwd ~/src/app`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCP(cmd.Context(), a) },
	}
}

func runMCP(ctx context.Context, a *app) error {
	longRunning()
	if a.json {
		return usagef("mcp speaks JSON-RPC on standard output; --json does not apply")
	}
	if _, err := a.cwd(); err != nil {
		return err
	}
	logw := &onceWriter{w: a.errw}
	srv, err := mcpserver.New(mcpserver.Options{
		Version:     version(),
		Open:        a.mcpOpener(logw),
		FollowRoots: a.dirFlag == "" && a.cwdFlag == "",
		Log:         a.errw,
	})
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal lets calls still running answer (Serve's grace);
	// a second one ends the process at once.
	context.AfterFunc(ctx, stop)
	return srv.Serve(ctx, a.in, a.out)
}

// mcpOpener resolves the project of each call the way every command does
// (settings, memory directory, mode, git hook), for the server's own
// directory or a client's root. Nothing it does can reach standard output,
// which belongs to the protocol, and each warning is logged once.
func (a *app) mcpOpener(logw io.Writer) mcpserver.Opener {
	b := *a
	b.out, b.errw = logw, logw
	base := b.resolver()
	return func(cwd string, agent mcpserver.Agent) (*mcpserver.Project, error) {
		o := *base
		if cwd != "" {
			o.Cwd = cwd
		}
		o.AgentType, o.AgentScope = agent.Type, agent.Scope
		ws, err := o.Resolve()
		if err != nil {
			return nil, err
		}
		p := &mcpserver.Project{Dir: ws.Dir, Claim: ws.Claim, Schedule: ws.Settings.Get("dream.schedule"),
			Team: mcpTeam(&o, ws)}
		if cfg, ok := embed.Configured(ws.Settings, a.getenv); ok {
			p.Semantic = func(d *memdir.Dir) search.Semantic { return embed.New(d, cfg, logw) }
		}
		return p, nil
	}
}

// onceWriter passes each distinct line on once: a long-running server
// resolves its project on every call and would repeat the same settings
// warning for each.
type onceWriter struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]bool
}

func (o *onceWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		if len(line) == 0 || o.seen[string(line)] {
			continue
		}
		o.seen[string(line)] = true
		if _, err := o.w.Write(line); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
