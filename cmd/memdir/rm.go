package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newRmCmd(a *app) *cobra.Command {
	var team bool
	cmd := &cobra.Command{
		Use:   "rm NAME|FILE",
		Short: "Forget a topic",
		Long: `Delete a topic file and its line in MEMORY.md. With --team, the topic is
one of the project's team memory (commit the removal to share it).

Examples:
  memdir rm "Release freeze"
  memdir rm project_release_freeze.md
  memdir rm --team "Deploy runbook"`,
		Args: topicArgs,
		RunE: func(_ *cobra.Command, args []string) error { return runRm(a, topicRef(args), team) },
	}
	cmd.Flags().BoolVar(&team, "team", false, "remove a topic of the project's team memory")
	return cmd
}

func runRm(a *app, ref string, team bool) error {
	_, d, file, _, err := a.topicIn(ref, team, false)
	if err != nil {
		return err
	}
	res, err := d.RemoveTopic(file)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(rmJSON{Removed: res.File, IndexUpdated: res.IndexUpdated})
	}
	fmt.Fprintf(a.out, "removed %s\n", file)
	return nil
}
