package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
)

func newLintCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "lint",
		Short: "Check the memory directory",
		Long: `Check everything: MEMORY.md (dangling links, topics missing from it,
duplicate lines, long lines, stray content, size caps), every topic file's
frontmatter, expired project facts, and secrets on disk. Exits 1 when it
finds anything.

Examples:
  memdir lint
  memdir lint --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runLint(a) },
	}
}

func runLint(a *app) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	if !ws.dir.Exists() {
		return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.loc.Dir)
	}
	findings, err := ws.dir.Lint()
	if err != nil {
		return err
	}
	return a.report(findings)
}

// report prints findings; any error among them makes the exit status 1.
func (a *app) report(findings []memdir.Finding) error {
	errs := 0
	for _, f := range findings {
		if f.Level == memdir.LevelError {
			errs++
		}
	}
	if a.json {
		if findings == nil {
			findings = []memdir.Finding{}
		}
		if err := a.writeJSON(findings); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			fmt.Fprintln(a.out, f)
		}
		if errs == 0 {
			fmt.Fprintln(a.out, "ok")
		}
	}
	if errs > 0 {
		if !a.json {
			fmt.Fprintf(a.errw, "memdir: %d error(s) found\n", errs)
		}
		return errFound
	}
	return nil
}
