package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/watch"
)

type watchOptions struct {
	debounce time.Duration
	once     bool
}

func newWatchCmd(a *app) *cobra.Command {
	var opts watchOptions
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Keep MEMORY.md true while agents and people edit topic files",
		Long: `Watch the memory directory and, after each burst of changes goes quiet,
bring MEMORY.md in line with the topic files: a new topic file gets a line,
a changed description updates its hook, a renamed file's line follows it,
a deleted or private topic's line goes. Topic files are never rewritten: a
file with invalid frontmatter or a secret is reported (here and in
.memdir/watch.log) and left alone. One line per reconciliation goes to
stderr. It runs until interrupted (Ctrl-C, SIGTERM); with git on, each
burst is one commit.

--once reconciles the whole directory once and exits (1 if a file has a
problem); --json prints what it did.

Examples:
  memdir watch
  memdir watch --debounce 500ms
  memdir watch --once`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runWatch(cmd.Context(), a, opts) },
	}
	f := cmd.Flags()
	f.DurationVar(&opts.debounce, "debounce", watch.DefaultDebounce, "quiet period that ends a burst of changes")
	f.BoolVar(&opts.once, "once", false, "reconcile once and exit")
	return cmd
}

func runWatch(ctx context.Context, a *app, opts watchOptions) error {
	longRunning()
	if opts.debounce <= 0 {
		return usagef("--debounce %s: give a positive duration such as 200ms", opts.debounce)
	}
	if a.json && !opts.once {
		return usagef("--json goes with --once: a running watcher logs lines on stderr")
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	d := ws.Dir
	if !d.Exists() {
		return usagef("no memory directory at %s: run `memdir init` or `memdir add` first", d.Path)
	}
	if opts.once {
		return runWatchOnce(a, d)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(a.errw, "memdir watch: watching %s (Ctrl-C to stop)\n", d.Path)
	return watch.Run(ctx, watch.Options{Dir: d, Debounce: opts.debounce, Log: a.errw, Now: a.now})
}

// runWatchOnce reconciles everything once, as the watcher does when it
// starts.
func runWatchOnce(a *app, d *memdir.Dir) error {
	res, err := d.ReconcileWith(memdir.ReconcileRequest{All: true, What: "watch"})
	if err != nil {
		return err
	}
	failed := false
	for _, p := range res.Problems {
		failed = failed || p.Level == memdir.LevelError
		if !a.json {
			fmt.Fprintf(a.errw, "memdir: %s\n", p)
		}
	}
	if a.json {
		if err := a.writeJSON(res); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.out, "reconciled MEMORY.md: %s\n", res.Summary())
	}
	if failed {
		return errFound
	}
	return nil
}
