package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/memsync"
)

// remoteJSON is what `memdir remote` prints with --json.
type remoteJSON struct {
	Remote string `json:"remote"` // "" when none is set
	Set    bool   `json:"set"`
}

func newRemoteCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remote (set URL | show | unset | team [accept|forget])",
		Short: "Set, show or forget the git remote that `memdir sync` shares your memory through",
		Long: `Your memory of every project travels between your machines through one git
remote you own (a private repository, say). It is recorded in memdir's
home (<home>/sync/remote), never in a project's files, so no repository can
choose where your memory goes. memdir talks to it with your own git, ssh
keys, agent and credential helpers. "remote team" shows, and "remote team
accept" accepts, the team remote a project's settings propose
(docs/team.md).

Examples:
  memdir remote set git@github.com:me/memory.git
  memdir remote show --json
  memdir remote unset
  memdir remote team accept`,
		Args: exactArgs(0, "a subcommand: set URL, show, unset or team"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usagef("remote takes a subcommand: set URL, show, unset or team; see `memdir remote --help`")
		},
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:   "set URL",
			Short: "Use URL as the sync remote",
			Args:  exactArgs(1, "one git URL"),
			RunE:  func(_ *cobra.Command, args []string) error { return runRemoteSet(a, args[0]) },
		},
		&cobra.Command{
			Use:   "show",
			Short: "Print the sync remote",
			Args:  exactArgs(0, "no arguments"),
			RunE:  func(*cobra.Command, []string) error { return runRemoteShow(a) },
		},
		&cobra.Command{
			Use:   "unset",
			Short: "Forget the sync remote (the memory stays)",
			Args:  exactArgs(0, "no arguments"),
			RunE:  func(*cobra.Command, []string) error { return runRemoteUnset(a) },
		},
		newRemoteTeamCmd(a),
	)
	return cmd
}

// syncHome is the home that holds the sync remote: decided by the user's
// own settings, environment and flags, never by a project's file.
func (a *app) syncHome() (string, error) {
	_, s, _, err := a.project()
	if err != nil {
		return "", err
	}
	return canonical.Home(a.getenv, s.TrustHome())
}

func runRemoteSet(a *app, url string) error {
	home, err := a.syncHome()
	if err != nil {
		return err
	}
	if err := memsync.SetRemote(home, url); err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(remoteJSON{Remote: url, Set: true})
	}
	fmt.Fprintf(a.out, "sync remote: %s\n", url)
	return nil
}

func runRemoteShow(a *app) error {
	home, err := a.syncHome()
	if err != nil {
		return err
	}
	url, err := memsync.Remote(home)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(remoteJSON{Remote: url, Set: url != ""})
	}
	if url == "" {
		fmt.Fprintln(a.out, "no sync remote; set one with `memdir remote set URL`")
		return nil
	}
	fmt.Fprintln(a.out, url)
	return nil
}

func runRemoteUnset(a *app) error {
	home, err := a.syncHome()
	if err != nil {
		return err
	}
	was, err := memsync.UnsetRemote(home)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(remoteJSON{Set: false})
	}
	if !was {
		fmt.Fprintln(a.out, "no sync remote was set")
		return nil
	}
	fmt.Fprintln(a.out, "sync remote unset; your memory stays on this machine")
	return nil
}
