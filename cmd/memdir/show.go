package main

import (
	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/search"
)

func newShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME|FILE",
		Short: "Print one topic",
		Long: `Print a topic file, found by its file name, its name or its slug.

Examples:
  memdir show "Testing policy"
  memdir show feedback_testing_policy.md
  memdir show testing_policy --json`,
		Args: topicArgs,
		RunE: func(_ *cobra.Command, args []string) error { return runShow(a, topicRef(args)) },
	}
}

func runShow(a *app, ref string) error {
	ws, file, err := a.findTopic(ref)
	if err != nil {
		return err
	}
	// Showing a topic recalls it (search ranks recalled topics a little
	// higher); counting is derived data and never fails the command.
	defer func() { _ = search.Open(ws.dir).Recall(file) }()
	if a.json {
		t, err := ws.dir.Read(file)
		if err != nil {
			return err
		}
		return a.writeJSON(toJSON(t, true))
	}
	// A topic linked out of the memory directory is never printed.
	data, err := atomicfile.ReadInside(ws.loc.Dir, file)
	if err != nil {
		return err
	}
	_, err = a.out.Write(data)
	return err
}
