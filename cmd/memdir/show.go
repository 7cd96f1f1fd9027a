package main

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
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
		Args: exactArgs(1, "one topic name or file"),
		RunE: func(_ *cobra.Command, args []string) error { return runShow(a, args[0]) },
	}
}

func runShow(a *app, ref string) error {
	ws, file, err := a.findTopic(ref)
	if err != nil {
		return err
	}
	if a.json {
		t, err := ws.dir.Read(file)
		if err != nil {
			return err
		}
		return a.writeJSON(toJSON(t, true))
	}
	data, err := os.ReadFile(filepath.Join(ws.loc.Dir, file))
	if err != nil {
		return err
	}
	_, err = a.out.Write(data)
	return err
}
