package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newPathCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "path",
		Short: "Print where this project's memory lives",
		Long: `Print the memory directory, the canonical project root, the slug and the
mode with where it comes from (see memdir init). Every worktree and subdirectory of one repository prints the same
memory directory.

Examples:
  memdir path
  memdir path --json
  cd "$(memdir path --json | jq -r .dir)"`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runPath(a) },
	}
}

// pathInfo is what `memdir path` prints.
type pathInfo struct {
	Dir      string `json:"dir"`
	Root     string `json:"root"`
	Slug     string `json:"slug"`
	Mode     string `json:"mode"`
	ModeFrom string `json:"mode_from"`
	Source   string `json:"source"`
	WorkTree string `json:"worktree"`
	Repo     string `json:"repo"`
	Exists   bool   `json:"exists"`
}

func runPath(a *app) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	mode, err := modeOf(ws.settings, ws.loc.Dir)
	if err != nil {
		return err
	}
	info := pathInfo{
		Dir: ws.loc.Dir, Root: ws.loc.Root, Slug: ws.loc.Slug, Mode: string(mode.Mode), ModeFrom: mode.From,
		Source: ws.loc.Source, WorkTree: ws.repo.WorkTree, Repo: ws.repo.Kind, Exists: ws.dir.Exists(),
	}
	if a.json {
		return a.writeJSON(info)
	}
	fmt.Fprintf(a.out, "dir:  %s\nroot: %s\nslug: %s\nmode: %s (from %s)\n", info.Dir, info.Root, info.Slug, info.Mode, info.ModeFrom)
	return nil
}
