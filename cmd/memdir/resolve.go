package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
)

type resolveOptions struct {
	keep string
	team bool
}

func newResolveCmd(a *app) *cobra.Command {
	var opts resolveOptions
	cmd := &cobra.Command{
		Use:   "resolve FILE --keep mine|theirs|both",
		Short: "Settle a conflict a sync or git pull left for a topic",
		Long: `resolve settles a topic that a sync (or memdir's git merge driver) could
not merge because both sides changed the same fact: the topic keeps this
machine's version and the other is kept beside it as
<topic>.conflict-<id>.md, which lint and doctor report. FILE is the topic's
file or the conflict copy's.

  --keep mine    keep the topic as it is, drop the other version
  --keep theirs  replace the topic with the other version
  --keep both    keep the facts of both: the topic's lines, then the
                 other version's lines it lacks (its keys win where both
                 have one)

The conflict copies go, the topic's index line follows, and lint and
doctor pass again. For a file a sync held back because the remote's
version holds what looks like a credential, mine replaces the remote's
version with yours at the next sync, and theirs (or both) takes the
remote's version into memory after all. --team works in the project's
team memory.

Examples:
  memdir resolve feedback_use_pnpm.md --keep both
  memdir resolve feedback_use_pnpm.conflict-0a1b2c3.md --keep theirs
  memdir resolve --team reference_runbook.md --keep mine --json`,
		Args: exactArgs(1, "one topic file or conflict copy"),
		RunE: func(_ *cobra.Command, args []string) error { return runResolve(a, args[0], opts) },
	}
	cmd.Flags().StringVar(&opts.keep, "keep", "", "which side to keep: mine, theirs or both (required)")
	cmd.Flags().BoolVar(&opts.team, "team", false, "resolve in the project's team memory")
	return cmd
}

func runResolve(a *app, name string, opts resolveOptions) error {
	if opts.keep == "" {
		return usagef("resolve %s: give --keep mine, theirs or both", name)
	}
	keep, err := memsync.ParseKeep(opts.keep)
	if err != nil {
		return err
	}
	if filepath.Base(name) != name || !memdir.IsTopicFile(name) {
		return usagef("resolve %q: give a topic file's name, such as feedback_use_pnpm.md", name)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	d, _, err := a.scopeDir(ws, opts.team)
	if err != nil {
		return err
	}
	res, err := memsync.Resolve(d, name, keep)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(res)
	}
	fmt.Fprintf(a.out, "resolved %s: kept %s", res.Topic, res.Kept)
	if len(res.Removed) > 0 {
		fmt.Fprintf(a.out, "; removed %d conflict cop%s", len(res.Removed), map[bool]string{true: "y", false: "ies"}[len(res.Removed) == 1])
	}
	fmt.Fprintln(a.out)
	return nil
}
