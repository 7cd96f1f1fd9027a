package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memsync"
	wspkg "github.com/memdir/memdir/workspace"
)

// teamRemote is the state of a project's team remote (workspace resolves it).
type teamRemote = wspkg.TeamRemote

func newRemoteTeamCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "team [accept|forget]",
		Short: "Show or accept the team remote the project's settings propose",
		Long: `A project's settings may propose team.remote, a git remote for its team
memory. memdir never pushes to or pulls from it until you accept it here;
the acceptance is recorded in memdir's home (<home>/team-remotes) for this
project and this exact URL, never in the project. See docs/team.md.

memdir remote team forget withdraws your acceptance: syncs stop using
the remote (the team memory here, and the state memdir kept for it,
stay).

Examples:
  memdir remote team
  memdir remote team accept
  memdir remote team forget
  memdir remote team --json`,
		Args: exactArgs(0, "no arguments, or the subcommand accept or forget"),
		RunE: func(*cobra.Command, []string) error { return runRemoteTeamShow(a) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "accept",
		Short: "Accept the proposed team remote for this project",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runRemoteTeamAccept(a) },
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "forget",
		Short: "Withdraw your acceptance of this project's team remote",
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runRemoteTeamForget(a) },
	})
	return cmd
}

func runRemoteTeamForget(a *app) error {
	tr, err := a.teamRemote()
	if err != nil {
		return err
	}
	forgot, err := memsync.ForgetTeamRemote(tr.Home, tr.Project)
	if err != nil {
		return err
	}
	tr.Accepted = false
	if a.json {
		return a.writeJSON(tr)
	}
	if forgot == "" {
		fmt.Fprintf(a.out, "no team remote was accepted for %s\n", tr.Project)
		return nil
	}
	fmt.Fprintf(a.out, "forgot team remote %s for %s: syncs no longer use it\n", forgot, tr.Project)
	return nil
}

func runRemoteTeamShow(a *app) error {
	tr, err := a.teamRemote()
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(tr)
	}
	fmt.Fprintln(a.out, describe(tr))
	return nil
}

func runRemoteTeamAccept(a *app) error {
	tr, err := a.teamRemote()
	if err != nil {
		return err
	}
	if tr.Proposed == "" {
		return usagef("project %s proposes no team remote (team.remote is not set): nothing to accept", tr.Project)
	}
	if err := memsync.CheckTeamRemote(tr.Home, tr.Proposed); err != nil {
		return usagef("team.remote (%s): %v", tr.From, err)
	}
	if !tr.Accepted {
		if err := memsync.AcceptTeamRemote(tr.Home, tr.Project, tr.Proposed); err != nil {
			return err
		}
		tr.Accepted = true
	}
	if a.json {
		return a.writeJSON(tr)
	}
	fmt.Fprintf(a.out, "accepted team remote %s for %s (recorded in %s)\n", tr.Proposed, tr.Project, filepath.Join(tr.Home, memsync.TeamRemotesFile))
	return nil
}

// describe says, in one line, what the project proposes and whether the
// user accepted it.
func describe(tr teamRemote) string {
	switch {
	case tr.Proposed == "":
		return fmt.Sprintf("project %s proposes no team remote", tr.Project)
	case tr.Accepted:
		return fmt.Sprintf("team remote %s (from %s): accepted for %s", tr.Proposed, tr.From, tr.Project)
	}
	return fmt.Sprintf("team remote %s (from %s) is proposed but not accepted: memdir will not use it until you run `memdir remote team accept`", tr.Proposed, tr.From)
}

// teamRemoteNotice is doctor's line about the team remote: "" unless the
// project proposes one the user has not accepted.
func (a *app) teamRemoteNotice() string {
	tr, err := a.teamRemote()
	if err != nil || tr.Proposed == "" || tr.Accepted {
		return ""
	}
	return describe(tr)
}

// teamRemote reads the project's proposed team remote and whether the
// user accepted it.
func (a *app) teamRemote() (teamRemote, error) {
	r := a.resolver()
	p, err := r.FindProject()
	if err != nil {
		return teamRemote{}, err
	}
	return r.TeamRemoteOf(p)
}
