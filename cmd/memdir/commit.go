package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
)

type commitOptions struct {
	message string
}

func newCommitCmd(a *app) *cobra.Command {
	var opts commitOptions
	cmd := &cobra.Command{
		Use:   "commit",
		Short: "Commit the memory directory's changes, and nothing else, to git",
		Long: `Commit every memory file that differs from HEAD (added, edited or removed,
by memdir or by hand) to the current branch, and nothing else.

When the memory directory sits inside the project's work tree (the dir
setting, e.g. .memdir), the commit holds the memory paths only: your other
staged and unstaged changes stay exactly as they were. memdir refuses on a
detached HEAD, during a merge, rebase, cherry-pick or revert, and when a
memory file has conflicts. With git.autocommit on, every memory change is
committed this way as it happens.

When the memory directory is a repository of its own (memdir init --git),
changes are committed as they happen; this commits hand edits.

Examples:
  memdir commit
  memdir commit -m "memory: notes from the release"`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runCommit(a, opts) },
	}
	cmd.Flags().StringVarP(&opts.message, "message", "m", "", "commit message (default: says what changed)")
	return cmd
}

func runCommit(a *app, opts commitOptions) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if !ws.Dir.Exists() {
		return usagef("there is no memory directory at %s yet: `memdir init` makes one", ws.Loc.Dir)
	}
	r, err := a.openGit(ws)
	if err != nil {
		return err
	}
	lk, err := ws.Dir.Lock("commit")
	if err != nil {
		return err
	}
	defer lk.Release()
	if !r.Own() {
		if _, err := memgit.EnsureIgnore(ws.Loc.Dir); err != nil {
			return err
		}
	}
	changes, err := r.Status()
	if err != nil {
		return err
	}
	if changes.Empty() {
		return a.nothingToCommit()
	}
	msg := opts.message
	if msg == "" {
		msg = r.Message(changes.Summary())
	}
	res, err := r.Commit(changes.Paths(), msg)
	if err != nil {
		return err
	}
	if !res.Committed() {
		return a.nothingToCommit()
	}
	hash := res.Hash.String()
	if a.json {
		return a.writeJSON(commitJSON{Committed: true, Files: res.Paths, Branch: res.Branch, Hash: hash, Short: hash[:7], Message: msg})
	}
	fmt.Fprintf(a.out, "committed %s to %s (%s): %s\n", memdir.Count(len(res.Paths), "memory file"), res.Branch, hash[:7], msg)
	return nil
}

// nothingToCommit says that memory is as HEAD has it.
func (a *app) nothingToCommit() error {
	if a.json {
		return a.writeJSON(commitJSON{Files: []string{}})
	}
	fmt.Fprintln(a.out, "nothing to commit: memory is as HEAD has it")
	return nil
}
