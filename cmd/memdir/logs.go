package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/dailylog"
	"github.com/memdir/memdir/distilled"
	"github.com/memdir/memdir/memdir"
)

type logsOptions struct {
	since, until string
}

func newLogsCmd(a *app) *cobra.Command {
	var opts logsOptions
	cmd := &cobra.Command{
		Use:   "logs",
		Short: "Print the daily log entries",
		Long: `Print the entries of the daily logs (log mode) in a date range, oldest
first, grouped by day. Dates are YYYY-MM-DD, today, yesterday or Nd (N days
ago), both inclusive. Entries a dream has not distilled yet are marked with
"*" (and "distilled": false in JSON). Lines the parser had to guess about
are reported on stderr.

Examples:
  memdir logs
  memdir logs --since 7d
  memdir logs --since 2026-11-01 --until 2026-11-30 --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runLogs(a, opts) },
	}
	cmd.Flags().StringVar(&opts.since, "since", "", "first day (YYYY-MM-DD, today, yesterday or Nd)")
	cmd.Flags().StringVar(&opts.until, "until", "", "last day (YYYY-MM-DD, today, yesterday or Nd)")
	return cmd
}

// logEntryJSON is a log entry as `memdir logs --json` prints it.
type logEntryJSON struct {
	dailylog.Entry
	Distilled bool `json:"distilled"`
}

func runLogs(a *app, opts logsOptions) error {
	since, err := logDate("--since", opts.since, a.now())
	if err != nil {
		return err
	}
	until, err := logDate("--until", opts.until, a.now())
	if err != nil {
		return err
	}
	if since != "" && until != "" && since > until {
		return usagef("--since %s is after --until %s", since, until)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	entries, problems, err := dailylog.Read(ws.Dir.Path, since, until)
	if err != nil {
		return err
	}
	for _, p := range problems {
		a.warn("%s", p)
	}
	done, err := distilled.Of(ws.Dir.Path, entries)
	if err != nil {
		return err
	}
	if a.json {
		out := make([]logEntryJSON, len(entries))
		for i, e := range entries {
			out[i] = logEntryJSON{Entry: e, Distilled: done[i]}
		}
		return a.writeJSON(out)
	}
	printLogs(a, entries, done)
	return nil
}

func printLogs(a *app, entries []dailylog.Entry, done []bool) {
	day, pending := "", 0
	for i, e := range entries {
		if e.Date != day {
			if day != "" {
				fmt.Fprintln(a.out)
			}
			day = e.Date
			fmt.Fprintf(a.out, "# %s\n\n", day)
		}
		line := dailylog.Format(e)
		if !done[i] {
			pending++
			line = "*" + line[1:]
		}
		fmt.Fprint(a.out, line)
	}
	if len(entries) > 0 {
		fmt.Fprintln(a.out)
	}
	fmt.Fprintf(a.out, "%s, %d not yet distilled (marked *)\n", memdir.Count(len(entries), "entry"), pending)
}

// logDate turns a --since or --until value into YYYY-MM-DD.
func logDate(flag, v string, now time.Time) (string, error) {
	day, err := dailylog.ParseDay(v, now)
	if err != nil {
		return "", usagef("%s %v", flag, err)
	}
	return day, nil
}
