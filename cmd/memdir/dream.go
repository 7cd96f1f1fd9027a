package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/dream"
	"github.com/memdir/memdir/progress"
)

type dreamOptions struct {
	dryRun bool
	quiet  bool
}

func newDreamCmd(a *app) *cobra.Command {
	var opts dreamOptions
	cmd := &cobra.Command{
		Use:   "dream",
		Short: "Distill the daily logs into topic files and refit MEMORY.md",
		Long: `Consolidate memory: distill the log entries not yet distilled into topic
files (relative dates made absolute, untyped entries typed, duplicates
dropped, replaced facts removed), move expired project topics to archive/,
refit MEMORY.md under 70% of its load caps and write a report to
.memdir/dreams/. Works in both modes; in live mode there are no logs and
the dream archives and refits.

The dream holds .consolidate-lock (its PID inside): a second dream exits at
once naming the holder. The dream.distiller setting names an external
distiller command that answers a JSON request (see docs/dream.md); its answer
is validated before anything is written; dream.distiller_timeout (10m)
bounds it and every process it starts. A dream killed at any point is
finished by the next one; a dream with nothing new changes no memory file
and writes no report, only its time in .consolidate-lock.

On a terminal, a dream that takes more than a second shows how many entries
it has matched; --quiet prints the counts without a line per replaced fact
or skipped entry (the report file has them all).

Examples:
  memdir dream
  memdir dream --quiet
  memdir dream --dry-run
  memdir dream --json | jq '.created'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runDream(cmd.Context(), a, opts) },
	}
	cmd.Flags().BoolVarP(&opts.dryRun, "dry-run", "n", false, "print the report and a diff of what would change; write nothing")
	cmd.Flags().BoolVarP(&opts.quiet, "quiet", "q", false, "print the counts only, not a line per replaced fact or skipped entry")
	return cmd
}

func runDream(ctx context.Context, a *app, opts dreamOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	// A dream holds every topic's terms: the default pace of the garbage
	// collector keeps its peak near twice that, not five times.
	longRunning()
	bar := progress.New(a.errw, "dream", "entries", 0)
	rep, err := dream.Run(ctx, dream.Options{
		Progress:         bar.Set,
		Dir:              ws.Dir,
		Wall:             a.wall,
		DryRun:           opts.dryRun,
		Distiller:        ws.Settings.Get("dream.distiller"),
		Stderr:           a.errw,
		DistillerTimeout: ws.Settings.Duration("dream.distiller_timeout"),
	})
	bar.Done()
	if err != nil {
		var ae *dream.AnswerError
		if errors.As(err, &ae) {
			return fmt.Errorf("dream: %w", err)
		}
		return err
	}
	if a.json {
		return a.writeJSON(rep)
	}
	if opts.quiet {
		fmt.Fprint(a.out, rep.Brief())
	} else {
		fmt.Fprint(a.out, rep.Summary())
	}
	if opts.dryRun && rep.Diff != "" {
		fmt.Fprint(a.out, "\n"+rep.Diff)
	}
	return nil
}
