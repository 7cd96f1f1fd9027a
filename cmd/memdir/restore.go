package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

type restoreOptions struct {
	at string
}

func newRestoreCmd(a *app) *cobra.Command {
	var opts restoreOptions
	cmd := &cobra.Command{
		Use:   "restore NAME|FILE [--at REV]",
		Short: "Bring back a removed topic, or a topic as it was at a commit",
		Long: `Without --at, bring back a topic memdir rm removed, as it was when it was
removed (rm keeps its last version in the trash, .memdir/trash). With --at,
bring a topic back as it was at commit REV, a removed topic included. Either
way its line goes back in MEMORY.md. The restore is a new change: with
memory in git it is committed ("restore FILE from REV"), and nothing in
history is rewritten. REV is anything git names a commit by (HEAD~2, a hash
from memdir history).

Examples:
  memdir rm "Release freeze"
  memdir restore "Release freeze"
  memdir history "Release freeze"
  memdir restore "Release freeze" --at HEAD~1
  memdir restore project_release_freeze.md --at 3f2a9c1`,
		Args: exactArgs(1, "one topic name or file"),
		RunE: func(_ *cobra.Command, args []string) error { return runRestore(a, opts, args[0]) },
	}
	cmd.Flags().StringVar(&opts.at, "at", "", "the commit to take the topic from (default: the removed topic kept in the trash)")
	return cmd
}

func runRestore(a *app, opts restoreOptions, ref string) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if opts.at == "" {
		return a.restoreTrashed(ws, ref)
	}
	r, err := a.openGit(ws)
	if err != nil {
		return err
	}
	at, err := r.Resolve(opts.at)
	if err != nil {
		return usagef("%v: give a commit such as HEAD~1 or a hash from `memdir history`", err)
	}
	file, err := r.TopicAt(ws.Dir, ref, at.Hash)
	if err != nil {
		return err
	}
	data, err := r.FileAt(at.Hash, file)
	if err != nil {
		return usagef("%s did not exist at %s (%s): `memdir history %s` shows when it did", file, at.Short, at.Subject, file)
	}
	res, err := ws.Dir.Restore(file, data, at.Short)
	if err != nil {
		return err
	}
	if a.json {
		out := topicWrite(map[bool]string{false: "unchanged", true: "restored"}[res.Changed], file, res)
		out.From = &at
		return a.writeJSON(out)
	}
	if !res.Changed {
		fmt.Fprintf(a.out, "unchanged %s (already as at %s)\n", file, at.Short)
		return nil
	}
	fmt.Fprintf(a.out, "restored %s as at %s (%s)\n", file, at.Short, at.Subject)
	return nil
}

// restoreTrashed brings back the removed topic ref from the trash.
func (a *app) restoreTrashed(ws *workspace, ref string) error {
	if file, err := ws.Dir.Find(ref); err == nil {
		return usagef("%s is not removed: give --at REV to take it as it was at a commit (see `memdir history %s`)", file, file)
	}
	file, data, err := ws.Dir.Trashed(ref)
	if err != nil {
		return err
	}
	res, err := ws.Dir.Restore(file, data, "trash")
	if err != nil {
		return err
	}
	if err := ws.Dir.DropTrashed(file); err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(topicWrite("restored", file, res))
	}
	fmt.Fprintf(a.out, "restored %s as it was removed\n", file)
	return nil
}
