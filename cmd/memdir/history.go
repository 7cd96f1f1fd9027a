package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memgit"
)

type historyOptions struct {
	limit int
}

func newHistoryCmd(a *app) *cobra.Command {
	var opts historyOptions
	cmd := &cobra.Command{
		Use:   "history [NAME|FILE]",
		Short: "List the commits that changed memory, or one topic",
		Long: `List the commits that changed the memory directory, newest first, or only
those that changed one topic (a removed topic too: give its name or file
name). Memory must be in git: its own repository (memdir init --git) or
the project's.

Examples:
  memdir history
  memdir history "Testing policy" --json
  memdir history project_release_freeze.md -n 5`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("history takes at most one topic name or file; see `memdir history --help`")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			ref := ""
			if len(args) == 1 {
				ref = args[0]
			}
			return runHistory(a, opts, ref)
		},
	}
	cmd.Flags().IntVarP(&opts.limit, "limit", "n", 0, "show at most this many commits (0: all)")
	return cmd
}

func runHistory(a *app, opts historyOptions, ref string) error {
	if opts.limit < 0 {
		return usagef("--limit %d: give a number >= 0", opts.limit)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	r, err := a.openGit(ws)
	if err != nil {
		return err
	}
	file := ""
	if ref != "" {
		if file, err = r.TopicAt(ws.Dir, ref, ""); err != nil {
			return err
		}
	}
	commits, err := r.History(file, opts.limit)
	if err != nil {
		return err
	}
	if r.Shallow() {
		a.warn("this clone's history is shallow (git clone --depth): older commits are not here; git fetch --unshallow fetches them")
	}
	if a.json {
		if commits == nil {
			commits = []memgit.Commit{}
		}
		return a.writeJSON(commits)
	}
	for _, c := range commits {
		fmt.Fprintf(a.out, "%s  %s  %s\n", c.Short, c.When.Format("2006-01-02 15:04"), c.Subject)
	}
	return nil
}
