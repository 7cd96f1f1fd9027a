package main

import (
	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/search"
)

func newShowCmd(a *app) *cobra.Command {
	var team bool
	cmd := &cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print one topic",
		Long: `Print a topic file, found by its file name, its name or its slug. A topic
not in your own memory is looked for in the project's team memory; --team
looks only there. In JSON a team topic carries "scope": "team".

Examples:
  memdir show "Testing policy"
  memdir show feedback_testing_policy.md
  memdir show testing_policy --json
  memdir show --team "Deploy runbook"`,
		Args: topicArgs,
		RunE: func(_ *cobra.Command, args []string) error { return runShow(a, topicRef(args), team) },
	}
	cmd.Flags().BoolVar(&team, "team", false, "look only in the project's team memory")
	return cmd
}

func runShow(a *app, ref string, team bool) error {
	_, d, file, isTeam, err := a.topicIn(ref, team, true)
	if err != nil {
		return err
	}
	// Showing a topic recalls it (search ranks recalled topics a little
	// higher); counting is derived data and never fails the command.
	defer func() { _ = search.Open(d).Recall(file) }()
	if a.json {
		t, err := d.Read(file)
		if err != nil {
			return err
		}
		v := listedTopic{TopicView: toJSON(t, true)}
		if isTeam {
			v.Scope = scopeTeam
		}
		return a.writeJSON(v)
	}
	// A topic linked out of the memory directory is never printed.
	data, err := atomicfile.ReadInside(d.Path, file)
	if err != nil {
		return err
	}
	_, err = a.out.Write(data)
	return err
}
