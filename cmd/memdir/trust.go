package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/settings"
	"github.com/memdir/memdir/untrusted"
)

// trustOptions are the flags of `memdir trust`.
type trustOptions struct {
	revoke bool
	list   bool
}

func newTrustCmd(a *app) *cobra.Command {
	var opts trustOptions
	cmd := &cobra.Command{
		Use:   "trust [--revoke | --list]",
		Short: "Trust this project's .memdir.yaml to run commands and reach outside the project",
		Long: `A project's .memdir.yaml is committed with the repository, so whoever wrote
the repository wrote it. Settings in it that would run a command or reach
outside the project (dream.distiller, context.allow_outside_imports, home, a
dir outside the project, profiles naming paths outside it) are ignored, with
a warning, until you review the file and trust it. Trust is recorded in
<home>/trusted.json against the file's SHA-256, as direnv does: a changed
file must be trusted again. Your own user, local (.memdir.local.yaml) and
managed settings, MEMDIR_* variables and flags are always honoured.

Examples:
  memdir trust              # trust <root>/.memdir.yaml as it is now
  memdir trust --list --json
  memdir trust --revoke`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runTrust(a, opts) },
	}
	cmd.Flags().BoolVar(&opts.revoke, "revoke", false, "stop trusting this project's settings file")
	cmd.Flags().BoolVar(&opts.list, "list", false, "list the trusted projects")
	return cmd
}

// trustJSON is what `memdir trust --json` prints for a trust or a revoke.
type trustJSON struct {
	Root    string             `json:"root"`
	File    string             `json:"file"`
	SHA256  string             `json:"sha256,omitempty"`
	Trusted bool               `json:"trusted"`
	Revoked bool               `json:"revoked,omitempty"` // a revoke removed a trust record
	Honours []settings.Ignored `json:"honours,omitempty"`
}

func runTrust(a *app, opts trustOptions) error {
	if opts.revoke && opts.list {
		return usagef("--revoke and --list cannot be combined")
	}
	a.trusting = true
	repo, s, _, err := a.project()
	if err != nil {
		return err
	}
	home := s.TrustHome()
	if opts.list {
		return a.listTrust(home)
	}
	file := filepath.Join(repo.Root, settings.ProjectFile)
	if opts.revoke {
		found, err := settings.Revoke(home, repo.Root)
		if err != nil {
			return err
		}
		if a.json {
			return a.writeJSON(trustJSON{Root: repo.Root, File: file, Revoked: found})
		}
		if !found {
			fmt.Fprintf(a.out, "%s was not trusted\n", repo.Root)
			return nil
		}
		fmt.Fprintf(a.out, "no longer trusting %s\n", file)
		return nil
	}
	data, err := untrusted.ReadFile(file, repo.Root, untrusted.MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return usagef("%s does not exist: there is nothing to trust", file)
	}
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	rec, err := settings.Trust(home, repo.Root, data, a.now())
	if err != nil {
		return err
	}
	return a.reportTrust(trustJSON{Root: repo.Root, File: file, SHA256: rec.SHA256, Trusted: true, Honours: s.Ignored()})
}

func (a *app) reportTrust(t trustJSON) error {
	if a.json {
		return a.writeJSON(t)
	}
	fmt.Fprintf(a.out, "trusted %s (sha256 %.12s)\n", t.File, t.SHA256)
	for _, ig := range t.Honours {
		fmt.Fprintf(a.out, "  now honoured: %s (line %d): %s\n", ig.Key, ig.Line, ig.Reason)
	}
	return nil
}

func (a *app) listTrust(home string) error {
	recs, err := settings.ReadTrust(home)
	if err != nil {
		return err
	}
	if a.json {
		if recs == nil {
			recs = []settings.TrustRecord{}
		}
		return a.writeJSON(recs)
	}
	tw := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%.12s\t%s\n", r.Root, r.SHA256, r.Trusted.Format("2006-01-02"))
	}
	return tw.Flush()
}
