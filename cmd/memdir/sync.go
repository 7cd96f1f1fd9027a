package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	memsync "github.com/memdir/memdir/sync"
)

func newSyncCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "sync",
		Short: "Pull then push your memory of every project through your sync remote",
		Long: `sync fetches your sync remote (memdir remote set URL), merges it with the
memory of every project under memdir's home and of the project you run it
in, and pushes the result. A project is known by its normalised origin URL,
so a clone on a new machine gets its memory on its first sync there.
MEMORY.md merges by entry, topics as text; when both machines changed the
same lines of a topic, the file keeps this machine's version and the other
is kept beside it as <name>.conflict-<id>.md. Private topics and files that
hold a credential are never pushed. See docs/sync.md.

Examples:
  memdir remote set git@github.com:me/memory.git
  memdir sync
  memdir sync --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runSync(cmd.Context(), a) },
	}
}

func runSync(ctx context.Context, a *app) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	home, err := canonical.Home(a.getenv, ws.settings.TrustHome())
	if err != nil {
		return err
	}
	opts := memsync.Options{Home: home, LockTimeout: ws.dir.LockTimeout, Now: a.now}
	if ws.loc.Source == canonical.SourceDefault && ws.loc.Home == home {
		opts.Projects = []memsync.Project{{Dir: ws.loc.Dir, Root: ws.loc.Root}}
	}
	res, err := memsync.Sync(ctx, opts)
	if errors.Is(err, memsync.ErrNoRemote) {
		return usagef("no sync remote is set: run `memdir remote set URL` first (a private git repository you own)")
	}
	if err != nil {
		return err
	}
	for _, p := range res.Projects {
		for _, s := range p.Skipped {
			a.warn("%s: %s not pushed: %s", p.Identity, s.File, s.Reason)
		}
	}
	for _, w := range res.Warnings {
		a.warn("%s", w)
	}
	if a.json {
		return a.writeJSON(res)
	}
	pulled, pushed := 0, 0
	for _, p := range res.Projects {
		pulled += len(p.Pulled)
		pushed += len(p.Pushed)
	}
	fmt.Fprintf(a.out, "synced with %s: %d files pulled, %d pushed\n", res.Remote, pulled, pushed)
	for _, p := range res.Projects {
		for _, c := range p.Conflicts {
			fmt.Fprintf(a.out, "conflict: %s: both machines changed a topic; the other version is in %s (merge it by hand, then remove it)\n", p.Identity, c)
		}
	}
	return nil
}
