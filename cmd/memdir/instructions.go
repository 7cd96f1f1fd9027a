package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/instructions"
	"github.com/memdir/memdir/secrets"
	"github.com/memdir/memdir/typesx"
)

func newInstructionsCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "instructions",
		Short: "Explain and edit agent instruction files (AGENTS.md, CLAUDE.md, ...)",
		Long: `List every instruction file an agent profile considers here, and what
happened to each; or append a bullet to one of them.

Examples:
  memdir instructions list --agent claude
  memdir instructions add --section Testing "Run go test -race before pushing."`,
	}
	cmd.AddCommand(newInstructionsListCmd(a), newInstructionsAddCmd(a))
	return cmd
}

func newInstructionsListCmd(a *app) *cobra.Command {
	var f discoverFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Explain every instruction file considered, in loading order",
		Long: `Print every file the profile considered, in loading order, with its
scope, kind, size and what happened to it (loaded, truncated, skipped by
glob, shadowed, cycle, duplicate, over budget, unreadable, missing, ...) and
why; then the skills found.

Examples:
  memdir instructions list
  memdir instructions list --agent codex --json
  memdir instructions list --agent claude --file web/src/app.tsx`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runInstructionsList(a, f) },
	}
	f.register(cmd)
	return cmd
}

// fileJSON is one considered file as `instructions list --json` prints it.
type fileJSON struct {
	Path         string `json:"path"`
	Scope        string `json:"scope"`
	Kind         string `json:"kind"`
	Size         int    `json:"size"`
	Status       string `json:"status"`
	Reason       string `json:"reason,omitempty"`
	ImportedFrom string `json:"imported_from,omitempty"`
	Depth        int    `json:"depth,omitempty"`
}

func runInstructionsList(a *app, f discoverFlags) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	p, err := a.profile(ws, f.agent)
	if err != nil {
		return err
	}
	res, err := instructions.Discover(a.discoverOptions(ws, p, f))
	if err != nil {
		return err
	}
	if !a.json {
		return instructions.WriteList(a.out, res, ws.Repo.WorkTree)
	}
	files := make([]fileJSON, 0, len(res.Files))
	for _, x := range res.Files {
		files = append(files, fileJSON{Path: x.Path, Scope: string(x.Scope), Kind: x.Kind, Size: x.Size,
			Status: string(x.Status), Reason: x.Reason, ImportedFrom: x.ImportedFrom, Depth: x.Depth})
	}
	return a.writeJSON(map[string]any{"profile": res.Profile, "files": files, "skills": res.Skills, "notes": res.Notes})
}

type instructionsAddOptions struct {
	discoverFlags
	scope       string
	section     string
	allowSecret bool
}

func newInstructionsAddCmd(a *app) *cobra.Command {
	var opts instructionsAddOptions
	cmd := &cobra.Command{
		Use:   "add [--scope user|project|local] [--section NAME] TEXT",
		Short: "Append a bullet to the profile's instruction file for a scope",
		Long: `Append "- TEXT" under the heading NAME of the profile's instruction file
for the scope (project: e.g. AGENTS.md or CLAUDE.md at the top of the work
tree; local: the uncommitted variant; user: the file in your home). The file
and the heading are created when missing; every other byte stays as it was.
Text that looks like a credential is refused.

Examples:
  memdir instructions add "Use pnpm, not npm."
  memdir instructions add --agent claude --scope local --section "My setup" "The dev DB runs on port 5433."`,
		Args: exactArgs(1, "the TEXT to add"),
		RunE: func(_ *cobra.Command, args []string) error { return runInstructionsAdd(a, opts, args[0]) },
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.scope, "scope", "project", "user, project or local")
	cmd.Flags().StringVar(&opts.section, "section", "", "heading to add under (default: the end of the file)")
	cmd.Flags().BoolVar(&opts.allowSecret, "allow-secret", false, "accept text that looks like a credential")
	return cmd
}

func runInstructionsAdd(a *app, opts instructionsAddOptions, text string) error {
	scope, err := typesx.ParseScope(opts.scope)
	if err != nil || (scope != typesx.ScopeUser && scope != typesx.ScopeProject && scope != typesx.ScopeLocal) {
		return usagef("--scope %q: use user, project or local", opts.scope)
	}
	if found := secrets.Scan(text); len(found) > 0 && !opts.allowSecret {
		return usagef("the text contains what looks like a %s (%s): secrets never go into instruction files; remove it, or pass --allow-secret if it is not one", found[0].Kind, found[0].Redacted)
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	p, err := a.profile(ws, opts.agent)
	if err != nil {
		return err
	}
	path, err := instructions.FileFor(p, scope, a.discoverOptions(ws, p, opts.discoverFlags))
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if err := instructions.Add(path, opts.section, text); err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(instructionsAddJSON{Path: path, Section: opts.section, Text: text})
	}
	fmt.Fprintf(a.out, "added to %s\n", path)
	return nil
}
