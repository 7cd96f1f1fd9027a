package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is memdir's version as the build recorded it: the module version
// for `go install ...@vX`, else the commit and whether the tree was dirty,
// else "devel".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print memdir's version",
		Long: `Print memdir's version, as memdir --version does; --json adds the Go
version it was built with.

Examples:
  memdir version
  memdir version --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			if a.json {
				return a.writeJSON(struct {
					Version string `json:"version"`
					Go      string `json:"go"`
				}{version(), runtime.Version()})
			}
			fmt.Fprintf(a.out, "memdir %s\n", version())
			return nil
		},
	}
}
