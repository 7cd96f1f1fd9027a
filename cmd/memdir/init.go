package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memsync"
)

type initOptions struct {
	mode string
	git  bool
}

func newInitCmd(a *app) *cobra.Command {
	var opts initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create this project's memory directory",
		Long: `Create the memory directory with an empty MEMORY.md, and record the
project root it belongs to. Running it again changes nothing. --mode records
how this directory takes new memories: live (the default) writes topic files
at once, log appends to a daily log that memdir dream distills. Without
--mode, init records the mode in effect (the mode setting, else live), so
a later change to your user settings leaves this project as it is.

The mode comes from, first to last: a managed lock, MEMDIR_MODE, the
project's .memdir.yaml or .memdir.local.yaml, the mode init recorded in
the memory directory (.memdir/mode), your user settings (a default for
memory that recorded none), live. memdir path shows which one it is. --git makes
the memory directory a git repository of its own (not inside a project's
work tree): every change to memory is then committed.

When the memory directory is committed with the project (dir: .memdir,
say), init also writes a .gitattributes into it and registers memdir's
merge driver in the project's .git/config, so git merge and git pull
merge MEMORY.md by entry and topics as text, as memdir sync does.

Examples:
  memdir init
  memdir init --mode log
  memdir init --git
  memdir --dir .memdir init`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runInit(a, opts) },
	}
	cmd.Flags().StringVar(&opts.mode, "mode", "", "live or log (default: the mode setting, else live)")
	cmd.Flags().BoolVar(&opts.git, "git", false, "make the memory directory its own git repository and commit every change")
	return cmd
}

func runInit(a *app, opts initOptions) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	var mode memdir.Mode
	if opts.mode != "" {
		if mode, err = memdir.ParseMode(opts.mode); err != nil {
			return err
		}
	}
	if opts.git {
		if err := a.gitInitCheck(ws); err != nil {
			return err
		}
	}
	existed := ws.Dir.Exists()
	created, err := ws.Dir.Init()
	if err != nil {
		return err
	}
	a.warnOutsideRepo(ws, existed)
	if err := ws.Claim(); err != nil {
		return err
	}
	choice, err := a.recordMode(ws, mode)
	if err != nil {
		return err
	}
	out := initJSON{Dir: ws.Loc.Dir, Created: created, Mode: string(choice.Mode), ModeFrom: choice.From}
	if !a.json {
		// The directory is there whatever git says next.
		verb := "initialized"
		if !created {
			verb = "already initialized"
		}
		fmt.Fprintf(a.out, "%s %s (mode %s, from %s)\n", verb, ws.Loc.Dir, choice.Mode, choice.From)
	}
	if opts.git {
		if out.Git, err = a.gitInit(ws); err != nil {
			return err
		}
	}
	// Memory committed with the project merges by entry in git too.
	config, err := memsync.RegisterDriver(context.Background(), ws.Loc.Dir, ws.Loc.Root)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(out)
	}
	if out.Git != nil {
		fmt.Fprintln(a.out, out.Git.line())
	}
	if config != "" {
		fmt.Fprintf(a.out, "merge driver: git merges memory as memdir sync does (%s)\n", config)
	}
	return nil
}

// recordMode records the directory's mode: the one asked for, else (when
// none is recorded yet) the mode in effect now, so later changes to the
// user's settings leave this memory as it is. It returns the mode in
// effect afterwards, and warns when a setting above the recorded mode
// overrides the one asked for.
func (a *app) recordMode(ws *workspace, asked memdir.Mode) (modeChoice, error) {
	before, err := modeOf(ws.Settings, ws.Loc.Dir)
	if err != nil {
		return modeChoice{}, err
	}
	record := asked
	if record == "" && before.Recorded == "" {
		record = before.Mode
	}
	if record != "" && record != before.Recorded {
		if err := ws.Dir.RecordMode(record); err != nil {
			return modeChoice{}, err
		}
	}
	after, err := modeOf(ws.Settings, ws.Loc.Dir)
	if err != nil {
		return modeChoice{}, err
	}
	ws.Dir.Mode = after.Mode
	if asked != "" && after.Mode != asked {
		a.warn("recorded mode %s, but %s sets mode %s, which wins here", asked, after.From, after.Mode)
	}
	return after, nil
}
