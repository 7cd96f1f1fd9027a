package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/overview"
	"github.com/memdir/memdir/search"
)

type timelineOptions struct {
	around         string
	includePrivate bool
}

func newTimelineCmd(a *app) *cobra.Command {
	var opts timelineOptions
	cmd := &cobra.Command{
		Use:   "timeline [DATE|TOPIC]",
		Short: "Show what happened to memory around a day or a topic",
		Long: `Show, oldest first, the changes to topics and the daily-log entries around
a point in time: now, a DATE (YYYY-MM-DD, today, yesterday or Nd), or the
last change of a TOPIC (its name or file; its own changes are marked >).
Topic changes come from git history when memory is in git (memdir init
--git, or committed with the project), else from the topics' created and
modified stamps. Log entries a dream has not distilled yet are marked "*".
--around sets how far to look on each side (3d by default; Nd, Nw, Nh or
a Go duration such as 90m). A DATE wins over a topic of the same name.

Examples:
  memdir timeline
  memdir timeline 2026-11-20 --around 1d
  memdir timeline "Release freeze" --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("timeline takes at most one DATE or TOPIC; see `memdir timeline --help`")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTimeline(cmd.Context(), a, opts, strings.Join(args, ""))
		},
	}
	cmd.Flags().StringVar(&opts.around, "around", "3d", "how far to look on each side (Nd, Nw, Nh, 90m)")
	cmd.Flags().BoolVar(&opts.includePrivate, "include-private", false, "include private topics")
	return cmd
}

func runTimeline(ctx context.Context, a *app, opts timelineOptions, ref string) error {
	span, err := overview.ParseSpan(opts.around)
	if err != nil {
		return usagef("--around %v", err)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if !ws.Dir.Exists() {
		return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.Loc.Dir)
	}
	ref = a.removedTopicDay(ws, ref)
	r := overview.Reader{Dir: ws.Dir, Git: a.gitOptions()}
	q, err := r.Around(ref, span, opts.includePrivate)
	if err != nil {
		return err
	}
	tl, err := r.Timeline(ctx, q)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(tl)
	}
	printTimeline(a, tl, q.Topic != "")
	return nil
}

func printTimeline(a *app, tl *overview.Timeline, marks bool) {
	src := "topic stamps"
	if tl.Source == "git" {
		src = "git history"
	}
	fmt.Fprintf(a.out, "%s to %s (topic changes from %s)\n", tl.From.Local().Format("2006-01-02 15:04"), tl.To.Local().Format("2006-01-02 15:04"), src)
	if len(tl.Events) == 0 {
		fmt.Fprintln(a.out, "nothing happened in that time")
	}
	for _, e := range tl.Events {
		row := eventRow(e)
		if marks {
			row = map[bool]string{true: "> ", false: "  "}[e.Focus] + row
		}
		fmt.Fprintln(a.out, search.TrimSnippet(row, rowWidth))
	}
}

// eventRow is one event: time, kind, where, and what.
func eventRow(e overview.Event) string {
	when := e.Time.Local().Format("2006-01-02 15:04")
	switch e.Kind {
	case "commit":
		return fmt.Sprintf("%s  %-8s  %s  %s", when, e.Kind, e.Commit, e.Text)
	case "log":
		what := e.Text
		if e.Name != "" {
			what = e.Name + ": " + what
		}
		if e.Type != "" {
			what = "[" + string(e.Type) + "] " + what
		}
		if e.Distilled != nil && !*e.Distilled {
			what = "* " + what
		}
		return fmt.Sprintf("%s  %-8s  %s#%d  %s", when, e.Kind, e.File, e.Entry, what)
	}
	return fmt.Sprintf("%s  %-8s  %s  %s — %s", when, e.Kind, e.File, e.Name, e.Text)
}

// removedTopicDay turns the name of a topic rm removed (kept in the
// trash) into the day it was last changed, so that timeline shows what
// happened around it; any other ref is returned as it is.
func (a *app) removedTopicDay(ws *workspace, ref string) string {
	if ref == "" {
		return ref
	}
	if _, err := ws.Dir.Find(ref); !errors.Is(err, memdir.ErrNotFound) {
		return ref
	}
	file, data, err := ws.Dir.Trashed(ref)
	if err != nil {
		return ref
	}
	t, err := memdir.ParseTopic(file, data)
	if err != nil || t.Modified.IsZero() {
		return ref
	}
	fmt.Fprintf(a.errw, "memdir: %s was removed (`memdir restore %s` brings it back): showing the day it last changed\n", file, strings.TrimSuffix(file, ".md"))
	return t.Modified.In(time.Local).Format(time.DateOnly)
}
