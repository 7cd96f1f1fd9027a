package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
	"github.com/memdir/memdir/progress"
	"github.com/memdir/memdir/settings"
)

// sync runs one sync of every memory directory under the home and of
// this project's, when it lives there; progress, when set, hears its
// steps (memsync.Options.Progress).
func (a *app) sync(ctx context.Context, ws *workspace, progress func(done, total int)) (*memsync.Result, error) {
	home, err := canonical.Home(a.getenv, ws.Settings.TrustHome())
	if err != nil {
		return nil, err
	}
	opts := memsync.Options{Home: home, LockTimeout: ws.Dir.LockTimeout(), Now: a.now, Progress: progress}
	if ws.Loc.Source == canonical.SourceDefault && ws.Loc.Home == home {
		opts.Projects = []memsync.Project{{Dir: ws.Loc.Dir, Root: ws.Loc.Root}}
	}
	return memsync.Sync(ctx, opts)
}

// teamSync syncs the project's team memory through its accepted team
// remote (workspace.SyncTeam), with its own progress line.
func (a *app) teamSync(ctx context.Context, ws *workspace) (*memsync.Result, error) {
	bar := progress.New(a.errw, "team sync", "steps", 0)
	defer bar.Done()
	return a.resolver().SyncTeam(ctx, ws, bar.Set)
}

// syncReport is what `memdir sync --json` prints: the personal sync's
// result (absent with no sync remote) and, under "team", the team
// memory's (absent with no accepted team remote).
type syncReport struct {
	*memsync.Result
	Team *memsync.Result `json:"team,omitempty"`
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
		Short: "Pull then push your memory through your sync remote (and the team's)",
		Long: `sync fetches your sync remote (memdir remote set URL), merges it with the
memory of every project under memdir's home and of the project you run it
in, and pushes the result. A project is known by its normalised origin URL,
so a clone on a new machine gets its memory on its first sync there.
MEMORY.md merges by entry, topics as lists of facts (what both machines
added is kept from both); when both machines changed the same fact of a
topic, the file keeps this machine's version and the other
is kept beside it as <name>.conflict-<id>.md. Private topics and files that
hold a credential are never pushed. See docs/sync.md.

On a terminal, a sync that takes over a second shows its progress on
standard error, in steps: a file merged, pushed or written into memory.

Exit status: 0 when synced, 1 when the sync failed (nothing was written
into memory that the remote did not accept), 2 for bad usage, 3 when it
synced but left a conflict copy or held back a file the remote sent
(what looks like a credential): memdir lint lists them and memdir
resolve FILE --keep mine|theirs|both settles each.

When the project's settings propose a team remote (team.remote) and you
accepted it (memdir remote team accept), sync also pulls, merges and
pushes the project's team memory there, and nothing else: see
docs/team.md.

Once a remote is set, a session-start hook (memdir context --format
claude-hook) starts a sync in the background, at most once every 5
minutes, and memdir daemon syncs every --sync-every; the
sync.at_session_start setting, false in your own settings, turns the
first off.

Examples:
  memdir remote set git@github.com:me/memory.git
  memdir sync
  memdir sync --json
  memdir remote team accept && memdir sync   # team memory too`,
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
	// One remote failing does not keep the other from syncing: each
	// result is shown, and either failure fails the command.
	var rep syncReport
	bar := progress.New(a.errw, "sync", "steps", 0)
	rep.Result, err = a.sync(ctx, ws, bar.Set)
	bar.Done()
	if errors.Is(err, memsync.ErrNoRemote) {
		err = nil
	}
	var teamErr error
	rep.Team, teamErr = a.teamSync(ctx, ws)
	if err == nil && teamErr == nil && rep.Result == nil && rep.Team == nil {
		return usagef("no sync remote is set: run `memdir remote set URL` first (a private git repository you own)")
	}
	err = errors.Join(err, teamErr)
	if rep.Result == nil && rep.Team == nil {
		return err
	}
	a.reportSync(rep.Result, "")
	a.reportSync(rep.Team, "team memory ")
	if err == nil {
		err = leftConflicts(rep.Result, rep.Team)
	}
	if a.json {
		return errors.Join(a.writeJSON(rep), err)
	}
	a.printSync(rep.Result, "")
	a.printSync(rep.Team, "team memory ")
	return err
}

// ExitConflict is memdir sync's exit status when the sync completed but
// left a conflict copy or held back a file the remote sent.
const ExitConflict = 3

// conflictError is a sync that completed and left something for a
// person: exit ExitConflict.
type conflictError struct{ copies, held int }

func (e *conflictError) Error() string {
	var what []string
	if e.copies > 0 {
		what = append(what, fmt.Sprintf("%d conflict cop%s", e.copies, map[bool]string{true: "y", false: "ies"}[e.copies == 1]))
	}
	if e.held > 0 {
		what = append(what, fmt.Sprintf("%d file%s held back", e.held, map[bool]string{true: "", false: "s"}[e.held == 1]))
	}
	return "the sync left " + strings.Join(what, " and ") + ": `memdir lint` lists them, `memdir resolve FILE --keep mine|theirs|both` settles each"
}

// ExitCode is ExitConflict.
func (e *conflictError) ExitCode() int { return ExitConflict }

// leftConflicts is a conflictError when a result holds a conflict or a
// held-back file, else nil.
func leftConflicts(rs ...*memsync.Result) error {
	var e conflictError
	for _, r := range rs {
		if r == nil {
			continue
		}
		for _, p := range r.Projects {
			e.copies += len(p.Conflicts)
			e.held += len(p.Held)
		}
	}
	if e.copies+e.held == 0 {
		return nil
	}
	return &e
}

// printSync says what a sync did (what names it: "" for your own
// memory) in a line, and a line for each conflict it kept.
func (a *app) printSync(res *memsync.Result, what string) {
	if res == nil {
		return
	}
	pulled, pushed := counts(res)
	fmt.Fprintf(a.out, "synced %swith %s: %s pulled, %d pushed\n", what, res.Remote, memdir.Count(pulled, "file"), pushed)
	for _, p := range res.Projects {
		for _, c := range p.Conflicts {
			fmt.Fprintf(a.out, "conflict: %s%s: both sides changed one fact of a topic; the other version is in %s (memdir resolve %s --keep mine|theirs|both)\n", what, p.Identity, c, c)
		}
	}
}

// reportSync warns, on stderr, of the files a sync kept back and of what
// went wrong after its push.
func (a *app) reportSync(res *memsync.Result, what string) {
	if res == nil {
		return
	}
	for _, p := range res.Projects {
		for _, s := range p.Skipped {
			a.warn("%s%s: %s not pushed: %s", what, p.Identity, s.File, s.Reason)
		}
		for _, h := range p.Held {
			a.warn("%s%s: %s", what, p.Identity, h.Message())
		}
	}
	for _, w := range res.Warnings {
		a.warn("%s%s", what, w)
	}
}

// syncAtSessionStart starts `memdir sync` as a detached process when a
// session starts, a sync remote is set, sync.at_session_start allows it
// and the last sync is at least memsync.MinInterval old. The hook waits
// only for the checks and the process start; the memory pulled is there
// for the next session. A sync started is announced on stderr.
func (a *app) syncAtSessionStart(ws *workspace) {
	if v, ok := ws.Settings.Lookup(sessionSyncKey); ok && v.Value == "false" &&
		v.Origin.Layer != settings.Project && v.Origin.Layer != settings.Local {
		return
	}
	home, err := canonical.Home(a.getenv, ws.Settings.TrustHome())
	if err != nil {
		return
	}
	due, _ := memsync.ClaimBackground(home, a.wall())
	if tr, ok, _ := a.acceptedTeamRemote(ws); ok {
		teamDue, _ := memsync.ClaimTeamBackground(tr.Home, tr.Proposed, a.wall())
		due = due || teamDue
	}
	if !due {
		return
	}
	if startDetached("--cwd", ws.Cwd, "sync") == nil {
		a.warn("syncing with your sync remote (and the team's, if accepted) in the background")
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

// acceptedTeamRemote is the project's accepted team remote, if any.
func (a *app) acceptedTeamRemote(ws *workspace) (teamRemote, bool, error) {
	return a.resolver().AcceptedTeamRemote(ws)
}

// syncRound runs one sync, and one of the team memory when its team
// remote is accepted, and logs one line about each; with no remote it
// does nothing and logs nothing.
func (a *app) syncRound(ctx context.Context, ws *workspace, log func(string)) {
	res, err := a.sync(ctx, ws, nil)
	a.logSync(ctx, "sync", res, err, log)
	res, err = a.teamSync(ctx, ws)
	a.logSync(ctx, "sync team memory", res, err, log)
}

func (a *app) logSync(ctx context.Context, what string, res *memsync.Result, err error, log func(string)) {
	switch {
	case errors.Is(err, memsync.ErrNoRemote):
	case err != nil && ctx.Err() != nil:
	case err != nil:
		log(what + ": " + err.Error())
	case res == nil:
	default:
		pulled, pushed := counts(res)
		log(fmt.Sprintf("%s: %s: %s pulled, %d pushed", what, res.Remote, memdir.Count(pulled, "file"), pushed))
		for _, w := range res.Warnings {
			log(what + ": " + w)
		}
	}
}
