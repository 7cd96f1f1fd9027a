package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newPathCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "path [dir|root|slug|mode]",
		Short: "Print where this project's memory lives",
		Long: `Print the memory directory, the canonical project root, the slug and the
mode with where it comes from (see memdir init). Every worktree and subdirectory of one repository prints the same
memory directory. Given one field (dir, root, slug or mode), print only
its value, for scripts.

Examples:
  memdir path
  memdir path --json
  cd "$(memdir path dir)"`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: []string{"dir", "root", "slug", "mode"},
		RunE: func(_ *cobra.Command, args []string) error {
			field := ""
			if len(args) == 1 {
				field = args[0]
			}
			return runPath(a, field)
		},
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

func runPath(a *app, field string) error {
	switch field {
	case "", "dir", "root", "slug", "mode":
	default:
		return usagef("path %q: give dir, root, slug or mode, or nothing for all of them", field)
	}
	if field != "" && a.json {
		return usagef("path %s prints one value: drop --json, or drop %s for the JSON object", field, field)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	mode, err := modeOf(ws.Settings, ws.Loc.Dir)
	if err != nil {
		return err
	}
	info := pathInfo{
		Dir: ws.Loc.Dir, Root: ws.Loc.Root, Slug: ws.Loc.Slug, Mode: string(mode.Mode), ModeFrom: mode.From,
		Source: ws.Loc.Source, WorkTree: ws.Repo.WorkTree, Repo: ws.Repo.Kind, Exists: ws.Dir.Exists(),
	}
	if a.json {
		return a.writeJSON(info)
	}
	if field != "" {
		fmt.Fprintln(a.out, map[string]string{"dir": info.Dir, "root": info.Root, "slug": info.Slug, "mode": info.Mode}[field])
		return nil
	}
	fmt.Fprintf(a.out, "dir:  %s\nroot: %s\nslug: %s\nmode: %s (from %s)\n", info.Dir, info.Root, info.Slug, info.Mode, info.ModeFrom)
	return nil
}
