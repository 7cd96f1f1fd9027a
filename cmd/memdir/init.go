package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	memsync "github.com/memdir/memdir/sync"
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
at once, log appends to a daily log that memdir dream distills. --git makes
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
	created, err := ws.dir.Init()
	if err != nil {
		return err
	}
	if err := ws.claim(); err != nil {
		return err
	}
	if mode != "" {
		if err := ws.dir.RecordMode(mode); err != nil {
			return err
		}
		ws.dir.Mode = mode
	}
	out := initJSON{Dir: ws.loc.Dir, Created: created, Mode: string(ws.dir.Mode)}
	if !a.json {
		// The directory is there whatever git says next.
		verb := "initialized"
		if !created {
			verb = "already initialized"
		}
		fmt.Fprintf(a.out, "%s %s (mode %s)\n", verb, ws.loc.Dir, ws.dir.Mode)
	}
	if opts.git {
		if out.Git, err = a.gitInit(ws); err != nil {
			return err
		}
	}
	// Memory committed with the project merges by entry in git too.
	config, err := memsync.RegisterDriver(context.Background(), ws.loc.Dir, ws.loc.Root)
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
