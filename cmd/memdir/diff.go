package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memgit"
)

type diffOptions struct {
	change bool
	topic  string
}

func newDiffCmd(a *app) *cobra.Command {
	var opts diffOptions
	cmd := &cobra.Command{
		Use:   "diff [REV [REV2]]",
		Short: "Show how memory differs from a commit, or what a commit changed",
		Long: `Show a unified diff of the memory directory: the files now against REV
(default HEAD), REV against REV2, or with --change what commit REV changed.
REV is anything git names a commit by: HEAD~2, a branch, a hash or its
prefix. memdir's private state is never shown.

Examples:
  memdir diff
  memdir diff HEAD~3 --topic "Testing policy"
  memdir diff --change HEAD`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 2 {
				return usagef("diff takes at most two revisions; see `memdir diff --help`")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error { return runDiff(a, opts, args) },
	}
	cmd.Flags().BoolVarP(&opts.change, "change", "c", false, "show what commit REV changed (against its parent)")
	cmd.Flags().StringVarP(&opts.topic, "topic", "t", "", "limit the diff to one topic (name or file)")
	return cmd
}

// diffJSON is what `memdir diff --json` prints.
type diffJSON struct {
	Files int    `json:"files"`
	Patch string `json:"patch"`
}

func runDiff(a *app, opts diffOptions, args []string) error {
	var dopts memgit.DiffOptions
	switch {
	case opts.change && len(args) != 1:
		return usagef("--change takes exactly one revision, e.g. memdir diff --change HEAD")
	case opts.change:
		dopts.Change = args[0]
	case len(args) == 2:
		dopts.From, dopts.To = args[0], args[1]
	case len(args) == 1:
		dopts.From = args[0]
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	r, err := a.openGit(ws)
	if err != nil {
		return err
	}
	for _, rev := range []string{dopts.From, dopts.To, dopts.Change} {
		if _, err := r.Resolve(orHead(rev)); err != nil {
			return usagef("%v: give a commit such as HEAD~1 or a hash from `memdir history`", err)
		}
	}
	if opts.topic != "" {
		if dopts.File, err = r.TopicAt(ws.Dir, opts.topic, orHead(dopts.From+dopts.Change)); err != nil {
			return err
		}
	}
	var out strings.Builder
	n, err := r.Diff(&out, dopts)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(diffJSON{Files: n, Patch: out.String()})
	}
	_, err = a.out.Write([]byte(out.String()))
	return err
}

func orHead(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}
