package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/dream"
)

func newScheduleCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "schedule [SPEC]",
		Short: "Print the next five times the dream runs",
		Long: `Print the next five times a cron schedule fires: SPEC, else the
dream.schedule setting (default "0 3 * * *", 03:00 every night). A spec is
5 cron fields (minute hour day-of-month month day-of-week) or a descriptor:
@yearly, @monthly, @weekly, @daily, @hourly, "@every 6h"; CRON_TZ=Zone in
front picks a time zone. Times are printed in the local time zone.

Examples:
  memdir schedule
  memdir schedule '30 2 * * 1-5'
  memdir schedule @hourly --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("schedule takes at most one SPEC (quote it: '0 3 * * *'); see `memdir schedule --help`")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			spec := ""
			if len(args) == 1 {
				spec = args[0]
			}
			return runSchedule(a, spec)
		},
	}
}

func runSchedule(a *app, spec string) error {
	if spec == "" {
		var err error
		if spec, err = a.scheduleSetting(); err != nil {
			return err
		}
		if spec == "" {
			return usagef("the dream.schedule setting is empty: no dream is scheduled; give a SPEC to try one")
		}
	}
	now := a.now().In(time.Local)
	runs, err := dream.NextRuns(spec, now, 5)
	var se *dream.ScheduleError
	if errors.As(err, &se) {
		return &usageError{msg: se.Error()}
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(struct {
			Spec string      `json:"spec"`
			Next []time.Time `json:"next"`
		}{spec, runs})
	}
	for _, t := range runs {
		fmt.Fprintln(a.out, t.Format("Mon 2006-01-02 15:04 MST"))
	}
	return nil
}

// scheduleSetting is the dream.schedule setting of this project.
func (a *app) scheduleSetting() (string, error) {
	ws, err := a.workspace()
	if err != nil {
		return "", err
	}
	return ws.Settings.Get("dream.schedule"), nil
}
