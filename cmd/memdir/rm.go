package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newRmCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME|FILE",
		Short: "Forget a topic",
		Long: `Delete a topic file and its line in MEMORY.md.

Examples:
  memdir rm "Release freeze"
  memdir rm project_release_freeze.md`,
		Args: topicArgs,
		RunE: func(_ *cobra.Command, args []string) error { return runRm(a, topicRef(args)) },
	}
}

func runRm(a *app, ref string) error {
	ws, file, err := a.findTopic(ref)
	if err != nil {
		return err
	}
	ws.dir.Fault = a.crashHook()
	res, err := ws.dir.RemoveTopic(file)
	a.reportRecovery(ws.dir)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(rmJSON{Removed: res.File, IndexUpdated: res.IndexUpdated})
	}
	fmt.Fprintf(a.out, "removed %s\n", file)
	return nil
}
