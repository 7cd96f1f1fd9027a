package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
)

func newLintCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "lint",
		Short: "Check the memory directory",
		Long: `Check everything: MEMORY.md (dangling links, topics missing from it,
duplicate lines, long lines, stray content, size caps), every topic file's
frontmatter, expired project facts, secrets on disk, special files (a FIFO
or device where a memory file belongs) and git lock files memdir did not
take, which stop its commits, and the conflict copies a sync kept
(<topic>.conflict-<hash>.md) until a person merges them. Exits 1 when it
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
	findings = ws.dir.ConflictCopies(findings)
	findings = append(findings, ws.dir.SpecialFiles()...)
	findings = append(findings, gitLockFindings(ws.loc.Dir, a.wall())...)
	return a.report(findings)
}

// gitLockFindings reports the git locks memdir cannot prove are its own:
// while one exists, memory is not committed.
func gitLockFindings(dir string, now time.Time) []memdir.Finding {
	locks, err := memgit.ForeignLocks(dir, now)
	if err != nil {
		return []memdir.Finding{{Kind: "git-lock", Level: memdir.LevelWarning, File: dir, Msg: "git locks not checked: " + err.Error()}}
	}
	var out []memdir.Finding
	for _, l := range locks {
		out = append(out, memdir.Finding{Kind: "git-lock", Level: memdir.LevelError, File: l.Path,
			Msg: fmt.Sprintf("a git lock memdir did not take (%s old): memory is not committed while it exists; if no git process runs in this repository, clear it: %s", l.Age.Round(time.Second), l.Remove)})
	}
	return out
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
