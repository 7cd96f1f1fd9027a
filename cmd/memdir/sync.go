package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/settings"
	memsync "github.com/memdir/memdir/sync"
)

// sync runs one sync of every memory directory under the home and of
// this project's, when it lives there.
func (a *app) sync(ctx context.Context, ws *workspace) (*memsync.Result, error) {
	home, err := canonical.Home(a.getenv, ws.settings.TrustHome())
	if err != nil {
		return nil, err
	}
	opts := memsync.Options{Home: home, LockTimeout: ws.dir.LockTimeout, Now: a.now}
	if ws.loc.Source == canonical.SourceDefault && ws.loc.Home == home {
		opts.Projects = []memsync.Project{{Dir: ws.loc.Dir, Root: ws.loc.Root}}
	}
	return memsync.Sync(ctx, opts)
}

// counts sums the files a sync pulled and pushed.
func counts(res *memsync.Result) (pulled, pushed int) {
	for _, p := range res.Projects {
		pulled += len(p.Pulled)
		pushed += len(p.Pushed)
	}
	return pulled, pushed
}

// sessionSyncKey turns the sync at session start off. Only the user's
// own layers count (managed, user, environment): a project's files cannot
// make memdir reach the network at every session, nor stop it.
const sessionSyncKey = "sync.at_session_start"

func newSyncCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
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

Once a remote is set, a session-start hook (memdir context --format
claude-hook) starts a sync in the background, at most once every 5
minutes, and memdir daemon syncs every --sync-every; the
sync.at_session_start setting, false in your own settings, turns the
first off.

Examples:
  memdir remote set git@github.com:me/memory.git
  memdir sync
  memdir sync --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runSync(cmd.Context(), a) },
	}
	cmd.AddCommand(newMergeDriverCmd(a))
	return cmd
}

func runSync(ctx context.Context, a *app) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	res, err := a.sync(ctx, ws)
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
	pulled, pushed := counts(res)
	fmt.Fprintf(a.out, "synced with %s: %d files pulled, %d pushed\n", res.Remote, pulled, pushed)
	for _, p := range res.Projects {
		for _, c := range p.Conflicts {
			fmt.Fprintf(a.out, "conflict: %s: both machines changed a topic; the other version is in %s (merge it by hand, then remove it)\n", p.Identity, c)
		}
	}
	return nil
}

// syncAtSessionStart starts `memdir sync` as a detached process when a
// session starts, a sync remote is set, sync.at_session_start allows it
// and the last sync is at least memsync.MinInterval old. The hook waits
// only for the checks and the process start; the memory pulled is there
// for the next session. A sync started is announced on stderr.
func (a *app) syncAtSessionStart(ws *workspace) {
	if v, ok := ws.settings.Lookup(sessionSyncKey); ok && v.Value == "false" &&
		v.Origin.Layer != settings.Project && v.Origin.Layer != settings.Local {
		return
	}
	home, err := canonical.Home(a.getenv, ws.settings.TrustHome())
	if err != nil {
		return
	}
	if due, err := memsync.ClaimBackground(home, a.wall()); err != nil || !due {
		return
	}
	if startDetached("--cwd", ws.cwd, "sync") == nil {
		a.warn("syncing with your sync remote in the background")
	}
}

// syncEvery syncs now and then every interval until ctx ends (the
// daemon's sync service). A failed sync is logged and tried again at the
// next tick.
func (a *app) syncEvery(ctx context.Context, ws *workspace, interval time.Duration, log func(string)) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		a.syncRound(ctx, ws, log)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// syncRound runs one sync and logs one line about it; with no remote set
// it does nothing and logs nothing.
func (a *app) syncRound(ctx context.Context, ws *workspace, log func(string)) {
	res, err := a.sync(ctx, ws)
	switch {
	case errors.Is(err, memsync.ErrNoRemote):
	case err != nil && ctx.Err() != nil:
	case err != nil:
		log("sync: " + err.Error())
	default:
		pulled, pushed := counts(res)
		log(fmt.Sprintf("sync: %s: %d files pulled, %d pushed", res.Remote, pulled, pushed))
		for _, w := range res.Warnings {
			log("sync: " + w)
		}
	}
}
