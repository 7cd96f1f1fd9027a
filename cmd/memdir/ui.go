package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/embed"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/viewer"
	wspkg "github.com/memdir/memdir/workspace"
)

type uiOptions struct {
	listen string
	open   bool
}

func newUICmd(a *app) *cobra.Command {
	var opts uiOptions
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Look at memory in a local web viewer",
		Long: `Serve a web viewer of memory on this machine and print its address: a
stream of what changed, search as you type, each topic rendered with its
history, MEMORY.md as an agent loads it (with a button to fit it), and
stats; topics can be edited, forgotten and restored. Every project under
the memdir home is a click away. Pages follow changes to memory live.

The viewer listens on 127.0.0.1 (a free port unless --listen names one)
and the address it prints carries a token that every request needs:
share it with no one. Requests from other web sites are refused. It runs
until interrupted (Ctrl-C, SIGTERM).

Examples:
  memdir ui
  memdir ui --listen 127.0.0.1:7070 --open`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runUI(cmd.Context(), a, opts) },
	}
	cmd.Flags().StringVar(&opts.listen, "listen", "127.0.0.1:0", "address to listen on (port 0: a free one)")
	cmd.Flags().BoolVar(&opts.open, "open", false, "open the viewer in the default browser")
	return cmd
}

func runUI(ctx context.Context, a *app, opts uiOptions) error {
	longRunning()
	if a.json {
		return usagef("ui takes no --json: it serves pages until interrupted")
	}
	host, _, err := net.SplitHostPort(opts.listen)
	if err != nil {
		return usagef("--listen %s: give HOST:PORT, such as 127.0.0.1:7070", opts.listen)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	pl := &uiProjects{a: a, current: ws, opened: map[string]viewer.Project{}}
	srv, err := viewer.New(viewer.Options{Projects: pl.list, Current: pl.id(ws.Loc), Git: a.gitOptions(), Now: a.now})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.listen)
	if err != nil {
		return usagef("--listen %s: %v", opts.listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		a.warn("listening on %s: other machines can reach the viewer; only the token keeps them out", ln.Addr())
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	url := srv.URL(ln)
	fmt.Fprintf(a.out, "memdir ui: %s\n", url)
	fmt.Fprintf(a.errw, "memdir ui: showing %s (Ctrl-C to stop)\n", ws.Loc.Dir)
	if opts.open {
		if err := openBrowser(url); err != nil {
			a.warn("could not open a browser (%v): open the address above", err)
		}
	}
	return srv.Serve(ctx, ln)
}

// uiProjects lists the projects the viewer shows: this one, and every
// memory directory under the memdir home, each opened once with its own
// project's settings, as `daemon --all` opens them.
type uiProjects struct {
	a       *app
	current *workspace

	mu     sync.Mutex
	opened map[string]viewer.Project // by memory directory
}

// id names a project in the viewer's URLs: its slug, or "current" for a
// memory directory outside the home.
func (pl *uiProjects) id(loc canonical.Location) string {
	if loc.Home != "" && filepath.Dir(loc.Dir) == filepath.Join(loc.Home, "projects", filepath.Base(filepath.Dir(loc.Dir))) {
		return filepath.Base(filepath.Dir(loc.Dir))
	}
	return "current"
}

func (pl *uiProjects) list() ([]viewer.Project, error) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	ws := pl.current
	cur := viewer.Project{ID: pl.id(ws.Loc), Label: ws.Loc.Root + " (this project)", Dir: ws.Dir, Schedule: ws.Settings.Get("dream.schedule"),
		Semantic: pl.a.semantic(ws)}
	out := []viewer.Project{cur}
	if ws.Loc.Home == "" {
		return out, nil
	}
	dirs, err := wspkg.MemoryDirs(ws.Loc.Home)
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		if dir == ws.Loc.Dir {
			continue
		}
		p, ok := pl.opened[dir]
		if !ok {
			if p, ok = pl.open(dir); !ok {
				continue
			}
			pl.opened[dir] = p
		}
		out = append(out, p)
	}
	return out, nil
}

// open opens another project's memory directory; one that cannot be
// opened is left out of the switcher.
func (pl *uiProjects) open(dir string) (viewer.Project, bool) {
	dws, err := pl.a.resolver().OpenRecorded(dir)
	if err != nil {
		return viewer.Project{}, false
	}
	root := dws.Repo.Root
	label := root
	if label == "" {
		label = filepath.Base(filepath.Dir(dir))
	}
	return viewer.Project{ID: filepath.Base(filepath.Dir(dir)), Label: label, Dir: dws.Dir, Schedule: dws.Settings.Get("dream.schedule"),
		Semantic: pl.a.semantic(dws)}, true
}

// openBrowser opens url in the person's default browser.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// semantic is the embedding ranker the workspace's settings configure
// for the viewer's search, or nil.
func (a *app) semantic(ws *workspace) search.Semantic {
	cfg, ok := embed.Configured(ws.Settings, a.getenv)
	if !ok {
		return nil
	}
	return embed.New(ws.Dir, cfg, a.errw)
}
