package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/overview"
	"github.com/memdir/memdir/search"
	"github.com/memdir/memdir/typesx"
)

type statsOptions struct {
	stale bool
}

func newStatsCmd(a *app) *cobra.Command {
	var opts statsOptions
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show the state of memory: topics, index load, logs, dreams, search",
		Long: `Show the state of the memory directory: topics per type, private and
expired ones, MEMORY.md against both load caps (200 lines, 25,000
characters), daily-log entries waiting for a dream, the last dream and the
next one the dream.schedule setting plans, the search index (documents,
size, fresh or not), and how many topics no search returned and no one
showed in 90 days: --stale lists them, the list to prune from. stats reads
and never writes.

Examples:
  memdir stats
  memdir stats --stale
  memdir stats --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runStats(cmd.Context(), a, opts) },
	}
	cmd.Flags().BoolVar(&opts.stale, "stale", false, "list the topics not recalled in 90 days")
	return cmd
}

func runStats(ctx context.Context, a *app, opts statsOptions) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if !ws.Dir.Exists() {
		return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.Loc.Dir)
	}
	r := overview.Reader{Dir: ws.Dir, Git: a.gitOptions()}
	st, err := r.Stats(ctx, overview.StatsOptions{Schedule: ws.Settings.Get("dream.schedule")})
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(st)
	}
	printStats(a, st, ws.Settings.Get("dream.schedule"))
	if opts.stale {
		for _, s := range st.Stale {
			last := "never recalled"
			if s.LastRecall != nil {
				last = "last recalled " + s.LastRecall.Local().Format("2006-01-02")
			}
			fmt.Fprintf(a.out, "  %-9s  %s  %s  (%s)\n", s.Type, s.File, s.Name, last)
		}
	}
	return nil
}

func printStats(a *app, st *overview.Stats, schedule string) {
	var types []string
	for _, t := range typesx.Types {
		types = append(types, fmt.Sprintf("%s %d", t, st.ByType[string(t)]))
	}
	line := func(label, format string, args ...any) {
		fmt.Fprintf(a.out, "%-13s %s\n", label, fmt.Sprintf(format, args...))
	}
	line("topics", "%d (%s); %d private, %d expired", st.Topics, strings.Join(types, ", "), st.Private, st.Expired)
	if st.Unreadable > 0 {
		line("unreadable", "%s (memdir lint says why)", memdir.Count(st.Unreadable, "topic file"))
	}
	line("MEMORY.md", "%d/%d lines (%d%%), %d/%d characters (%d%%)%s", st.Index.Lines, st.Index.MaxLines,
		pct(st.Index.Lines, st.Index.MaxLines), st.Index.Size, st.Index.MaxSize, pct(st.Index.Size, st.Index.MaxSize), pressure(st.Index))
	line("logs", "%s waiting for a dream", memdir.Count(st.LogPending, "entry"))
	line("last dream", "%s", orNever(st.LastDream == nil, func() string { return st.LastDream.Local().Format("2006-01-02 15:04") }))
	next := "none scheduled"
	if st.NextDream != nil {
		// The schedule plans it; only a running daemon keeps it.
		next = fmt.Sprintf("%s, when memdir daemon runs (dream.schedule %q; memdir daemon install)", st.NextDream.Local().Format("2006-01-02 15:04"), schedule)
	}
	line("next dream", "%s", next)
	line("search index", "%s", indexState(st.Search))
	hint := ""
	if len(st.Stale) > 0 {
		hint = " (memdir stats --stale lists them)"
	}
	line("stale", "%s not recalled in 90 days%s", memdir.Count(len(st.Stale), "topic"), hint)
}

func pct(n, of int) int {
	if of == 0 {
		return 0
	}
	return (100*n + of/2) / of
}

func pressure(s overview.IndexStats) string {
	switch {
	case s.OverCap:
		return "; over a cap: " + index.FixHint
	case s.OverWarn:
		return "; over 70%: run `memdir index --fit`"
	}
	return ""
}

func orNever(never bool, f func() string) string {
	if never {
		return "never"
	}
	return f()
}

func indexState(s search.IndexState) string {
	if !s.Built {
		return "not built yet (the next search builds it)"
	}
	state := "fresh"
	if !s.Fresh {
		state = fmt.Sprintf("%s changed since (the next search catches up)", memdir.Count(s.Changed, "file"))
	}
	return fmt.Sprintf("%s, %s, %s", memdir.Count(s.Documents, "document"), index.FormatSize(s.Bytes), state)
}
