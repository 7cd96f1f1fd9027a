package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/settings"
	"github.com/memdir/memdir/watch"
	wspkg "github.com/memdir/memdir/workspace"
)

type daemonOptions struct {
	schedule string
	all      bool
	minHours float64
	minSet   bool
	once     bool
	noWatch  bool
	// syncEvery is the time between two syncs with the sync remote; 0
	// syncs never.
	syncEvery time.Duration
}

func newDaemonCmd(a *app) *cobra.Command {
	var opts daemonOptions
	cmd := &cobra.Command{
		Use:   "daemon",
		Short: "Dream on a schedule, in the foreground",
		Long: `Run in the foreground and dream on a cron schedule: --schedule, else the
dream.schedule setting (default "0 3 * * *"). With --all every memory
directory under the memdir home (<home>/projects/*/memory) is dreamed, each
with its own project's settings; else only this project's.

A run skips a directory while another process dreams it, when it was
dreamed less than --min-hours (or dream.min_hours) ago, and when nothing is
new since its last dream; a round is skipped while the previous one still
runs. One line per directory per run goes to stderr. SIGINT or SIGTERM
stops the daemon after a running dream has finished. --once runs one round
now and exits (for crontab).

Without --all, the daemon also runs the file watcher on this project's
memory directory (as memdir watch does), so MEMORY.md stays true between
dreams; --no-watch turns that off.

When a sync remote is set (memdir remote set), the daemon also syncs every
--sync-every (default 15m; 0 turns it off), first when it starts; --once
syncs once after its dreams.

Examples:
  memdir daemon
  memdir daemon --all --schedule @hourly --min-hours 20
  memdir daemon --all --once`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.minSet = cmd.Flags().Changed("min-hours")
			return runDaemon(a, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.schedule, "schedule", "", `cron spec such as "0 3 * * *" or @daily (default: the dream.schedule setting)`)
	f.BoolVar(&opts.all, "all", false, "dream every memory directory under the memdir home")
	f.Float64Var(&opts.minHours, "min-hours", 0, "skip directories dreamed less than N hours ago (default: dream.min_hours)")
	f.BoolVar(&opts.once, "once", false, "run one round now and exit")
	f.BoolVar(&opts.noWatch, "no-watch", false, "do not run the file watcher beside the schedule")
	f.DurationVar(&opts.syncEvery, "sync-every", 15*time.Minute, "time between two syncs with the sync remote, when one is set; 0 for none")
	return cmd
}

// service is one long-running part of the daemon. The dream scheduler is
// one; the file watcher joins it as another.
type service struct {
	name string
	run  func(ctx context.Context) error
}

func runDaemon(a *app, opts daemonOptions) error {
	longRunning()
	if a.json {
		return usagef("daemon logs lines on standard error as it runs; --json does not apply")
	}
	if opts.minHours < 0 {
		return usagef("--min-hours must be 0 or more")
	}
	if opts.syncEvery < 0 {
		return usagef("--sync-every must be 0 or more, such as 15m")
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	spec := opts.schedule
	if spec == "" {
		if spec = ws.Settings.Get("dream.schedule"); spec == "" {
			return usagef("the dream.schedule setting is empty: give --schedule SPEC")
		}
	}
	if _, err := dream.ParseSchedule(spec); err != nil {
		return &usageError{msg: err.Error()}
	}
	var mu sync.Mutex
	logw := &lockedWriter{mu: &mu, w: a.errw}
	logLine := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(a.errw, "%s %s\n", a.wall().Format(time.RFC3339), line)
	}
	sched := &dream.Scheduler{
		Spec:    spec,
		Targets: func() ([]dream.Target, error) { return a.dreamTargets(ws, opts) },
		Dream:   dreamWith(a),
		Wall:    a.wall,
		Log:     logLine,
	}
	if opts.once {
		sched.Round(context.Background())
		if opts.syncEvery > 0 {
			a.syncRound(context.Background(), ws, logLine)
		}
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	services := []service{{name: "dream", run: sched.Start}}
	if opts.syncEvery > 0 {
		services = append(services, service{name: "sync", run: func(ctx context.Context) error {
			return a.syncEvery(ctx, ws, opts.syncEvery, logLine)
		}})
	}
	if !opts.all && !opts.noWatch && ws.Dir.Exists() {
		services = append(services, service{name: "watch", run: func(ctx context.Context) error {
			return watch.Run(ctx, watch.Options{Dir: ws.Dir, Log: logw, Now: a.now})
		}})
	}
	return runServices(ctx, services)
}

// lockedWriter serialises the log lines of the daemon's services.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// dreamWith runs a dream with the app's clock for stamps.
func dreamWith(a *app) func(context.Context, dream.Options) (*dream.Report, error) {
	return func(ctx context.Context, o dream.Options) (*dream.Report, error) {
		o.Now = a.now
		return dream.Run(ctx, o)
	}
}

// runServices runs every service until ctx ends and all have returned;
// the first error cancels the others.
func runServices(ctx context.Context, services []service) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(services))
	for i, s := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.run(ctx); err != nil {
				errs[i] = fmt.Errorf("%s: %w", s.name, err)
				cancel()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// dreamTargets lists the directories to dream: this project's, or with
// --all every memory directory under the home, each with its project's
// settings.
func (a *app) dreamTargets(ws *workspace, opts daemonOptions) ([]dream.Target, error) {
	if !opts.all {
		if !ws.Dir.Exists() {
			return nil, nil
		}
		return []dream.Target{a.target(ws.Dir, ws.Settings, opts)}, nil
	}
	dirs, err := wspkg.MemoryDirs(ws.Loc.Home)
	if err != nil {
		return nil, err
	}
	var out []dream.Target
	r := a.resolver()
	for _, dir := range dirs {
		// Each directory is opened, and its dreams committed, as its own
		// commands would.
		dws, err := r.OpenRecorded(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, a.target(dws.Dir, dws.Settings, opts))
	}
	return out, nil
}

func (a *app) target(d *memdir.Dir, s *settings.Settings, opts daemonOptions) dream.Target {
	min := s.Float("dream.min_hours")
	if opts.minSet {
		min = opts.minHours
	}
	return dream.Target{Dir: d, Distiller: s.Get("dream.distiller"), DistillerTimeout: s.Duration("dream.distiller_timeout"), MinHours: min}
}
