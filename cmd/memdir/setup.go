package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/memdir/memdir/agentsetup"
	"github.com/memdir/memdir/canonical"
	"github.com/memdir/memdir/importer"
	"github.com/memdir/memdir/instructions"
	"github.com/memdir/memdir/settings"
	"github.com/memdir/memdir/typesx"
	wspkg "github.com/memdir/memdir/workspace"
)

type setupOptions struct {
	user    bool
	print   bool
	undo    bool
	command string
}

func newSetupCmd(a *app) *cobra.Command {
	var opts setupOptions
	cmd := &cobra.Command{
		Use:   "setup claude|codex|gemini|amp",
		Short: "Wire memdir into an agent's configuration",
		Long: `Register ` + "`memdir mcp`" + ` as an MCP server in the agent's own configuration
and wire session-start context and capture: for Claude Code, Codex and Gemini
CLI, hooks that run ` + "`memdir context`" + ` when a session starts and
` + "`memdir capture`" + ` on each prompt, before compaction and at the end; for Amp,
a plugin (.amp/plugins/memdir.ts) that does the same from Amp's events
(docs/amp.md). docs/agents.md lists every file and key.

By default the project's files are edited (.mcp.json, .claude/settings.json,
.codex/, .gemini/settings.json, .amp/settings.json); --user edits your own
(~/.claude.json, ~/.claude/settings.json, ~/.codex/, ~/.gemini/,
$XDG_CONFIG_HOME/amp/ or ~/.config/amp/). Project files run "memdir" from PATH, so they work for
everyone who clones the project; user files run this memdir by its absolute
path. --command overrides both.

Every other setting, comment and the key order stay as they are; a second
run changes nothing; --undo takes out exactly what setup added. Each file
is written atomically, after a copy of the old one goes to <home>/backups.
A file setup cannot parse is left alone: exit 2, nothing written.

Examples:
  memdir setup claude --print        # show the change, write nothing
  memdir setup claude
  memdir setup codex --user
  memdir setup gemini --undo`,
		Args: exactArgs(1, "one agent: "+strings.Join(agentsetup.Agents, ", ")),
		RunE: func(_ *cobra.Command, args []string) error { return runSetup(a, opts, args[0]) },
	}
	f := cmd.Flags()
	f.BoolVar(&opts.user, "user", false, "edit your user-wide configuration instead of the project's")
	f.BoolVar(&opts.print, "print", false, "show the change as a diff; write nothing")
	f.BoolVar(&opts.undo, "undo", false, "remove what setup added")
	f.StringVar(&opts.command, "command", "", `the memdir executable the agent runs (default: "memdir" for project files, this binary's path for --user)`)
	return cmd
}

// setupFile is one file in setup's report.
type setupFile struct {
	Path   string   `json:"path"`
	Action string   `json:"action"`
	Backup string   `json:"backup,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Diff   string   `json:"diff,omitempty"`
}

func runSetup(a *app, opts setupOptions, agent string) error {
	if !slices.Contains(agentsetup.Agents, agent) {
		return usagef("unknown agent %q: use %s", agent, strings.Join(agentsetup.Agents, ", "))
	}
	repo, s, cwd, err := a.project()
	if err != nil {
		return err
	}
	o := agentsetup.Options{Agent: agent, User: opts.user, Undo: opts.undo, Program: opts.command,
		Home: a.getenv("HOME"), Root: repo.WorkTree, Getenv: a.getenv}
	if o.Root == "" {
		o.Root = repo.Root
	}
	if o.Program == "" {
		o.Program = a.defaultProgram(opts.user)
	}
	o.BackupDir = filepath.Join(s.Home(), "backups")
	var imported *importer.Report
	if agent == "claude" {
		if imported, err = a.prepareClaude(&o, repo.Root, s, opts); err != nil {
			return err
		}
	}
	if agent == "amp" {
		if o.InstructionFile, err = a.ampInstructionFile(repo.Root, repo.WorkTree, cwd, opts.user); err != nil {
			return err
		}
	}
	changes, err := agentsetup.Plan(o)
	if err != nil {
		var ue interface{ UserError() }
		if errors.As(err, &ue) {
			return &usageError{msg: err.Error()}
		}
		return err
	}
	files, err := a.applySetup(changes, o.BackupDir, opts.print)
	if err != nil {
		return err
	}
	if opts.command == "" && o.Program == "memdir" && !opts.undo {
		if _, err := exec.LookPath("memdir"); err != nil {
			fix := "put the folder that holds memdir on PATH, or pass --command"
			if self := selfPath(); self != "" {
				fix = "run: memdir setup " + agent + " --command " + self
			}
			a.warn("memdir is not on PATH, so %s will not find it: %s", agent, fix)
		}
	}
	return a.reportSetup(agent, opts, files, imported)
}

// applySetup writes each change (unless only printing), a copy of the old
// file going to backups, and says what it did.
func (a *app) applySetup(changes []agentsetup.Change, backups string, print bool) ([]setupFile, error) {
	files := make([]setupFile, 0, len(changes))
	stamp := a.now().UTC().Format("20060102T150405Z")
	for _, c := range changes {
		f := setupFile{Path: c.Path, Action: c.Action(), Notes: c.Notes}
		if print && c.Changed() {
			f.Diff = string(diff.Diff(c.Path, c.Old, c.Path+" (memdir setup)", c.New))
		}
		if !print {
			var err error
			if f.Backup, err = agentsetup.Apply(c, backups, stamp); err != nil {
				return nil, err
			}
		}
		files = append(files, f)
	}
	return files, nil
}

// prepareClaude finds memdir's directory for the project (created unless
// only looking), which setup points Claude at, and first brings in the
// memories Claude loads there today.
func (a *app) prepareClaude(o *agentsetup.Options, root string, s *settings.Settings, opts setupOptions) (*importer.Report, error) {
	dir, err := a.claudeMemoryDir(root, s, opts.undo || opts.print)
	if err != nil {
		return nil, err
	}
	if !opts.user {
		o.MemoryDir = dir
	}
	if opts.undo {
		return nil, nil
	}
	return a.claudeImport(*o, dir, opts.print)
}

// claudeImport brings into memdir's directory the memories Claude Code
// loads for this project today (its default auto memory directory, or
// the one its settings name), before setup points Claude at memdir's:
// the model keeps seeing every memory it saw. Nothing happens when Claude
// already uses memdir's directory or its auto memory is off.
func (a *app) claudeImport(o agentsetup.Options, memDir string, dry bool) (*importer.Report, error) {
	cm := agentsetup.ResolveClaudeMemory(o)
	if !cm.Enabled || filepath.Clean(cm.Dir) == filepath.Clean(memDir) {
		return nil, nil
	}
	if fi, err := os.Stat(cm.Dir); err != nil || !fi.IsDir() {
		return nil, nil
	}
	mems, skips, err := importer.Read(importer.Claude, cm.Dir)
	if err != nil {
		if importer.IsInput(err) {
			return nil, nil // nothing Claude would load there
		}
		return nil, err
	}
	ws, err := a.workspace()
	if err != nil {
		return nil, err
	}
	rep, err := importInto(a, ws.Dir, importer.Claude, cm.Dir, mems, skips, dry)
	return &rep, err
}

// claudeMemoryDir is the project's memory directory, which setup points
// Claude Code's auto memory at. Unless only looking, it is created (and
// its root claimed), since Claude writes into it without creating it.
func (a *app) claudeMemoryDir(root string, s *settings.Settings, look bool) (string, error) {
	r := a.resolver()
	p := &wspkg.Project{Repo: canonical.Repo{Root: root}, Settings: s}
	loc, err := r.Locate(p)
	if err != nil || look {
		return loc.Dir, err
	}
	ws, err := r.Open(p, loc)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(loc.Dir, 0o700); err != nil {
		return "", fmt.Errorf("create the memory directory: %w", err)
	}
	return loc.Dir, ws.Claim()
}

// defaultProgram is what the agent runs: "memdir" from PATH for project
// files, which are shared, and this binary's own path for user files,
// since an agent started from a desktop launcher may have a short PATH. A
// binary that `go run` or a test built lives in a temporary directory and
// would vanish: then "memdir" it is.
func (a *app) defaultProgram(user bool) string {
	if !user {
		return "memdir"
	}
	exe, err := os.Executable()
	if err != nil {
		return "memdir"
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	tmp, _ := filepath.EvalSymlinks(os.TempDir())
	if filepath.Base(exe) != "memdir" || strings.HasPrefix(exe, os.TempDir()) || tmp != "" && strings.HasPrefix(exe, tmp) {
		return "memdir"
	}
	return exe
}

// ampInstructionFile is the instruction file Amp reads that gets setup's
// note: the first existing one for the scope, as `instructions add` picks.
func (a *app) ampInstructionFile(root, workTree, cwd string, user bool) (string, error) {
	p, err := instructions.Lookup("amp", nil)
	if err != nil {
		return "", err
	}
	scope := typesx.ScopeProject
	if user {
		scope = typesx.ScopeUser
	}
	return instructions.FileFor(p, scope, instructions.Options{Profile: p, Root: root, WorkTree: workTree,
		Cwd: cwd, UserHome: a.getenv("HOME"), ConfigHome: a.getenv("XDG_CONFIG_HOME")})
}

func (a *app) reportSetup(agent string, opts setupOptions, files []setupFile, imported *importer.Report) error {
	hints := []string{}
	if !opts.undo && !opts.print {
		hints = append(hints, agentsetup.Hints(agent, opts.user)...)
	}
	if a.json {
		scope := map[bool]string{false: "project", true: "user"}[opts.user]
		return a.writeJSON(map[string]any{"agent": agent, "scope": scope, "undo": opts.undo,
			"print": opts.print, "files": files, "hints": hints, "imported": imported})
	}
	if imported != nil {
		printSetupImport(a, imported)
	}
	for _, f := range files {
		switch {
		case f.Diff != "":
			fmt.Fprint(a.out, f.Diff)
		case opts.print:
			fmt.Fprintf(a.out, "unchanged %s\n", f.Path)
		case f.Backup != "":
			fmt.Fprintf(a.out, "%s %s (old copy: %s)\n", f.Action, f.Path, f.Backup)
		default:
			fmt.Fprintf(a.out, "%s %s\n", f.Action, f.Path)
		}
		for _, n := range f.Notes {
			fmt.Fprintf(a.out, "note: %s\n", n)
		}
	}
	if opts.undo && agent == "claude" {
		fmt.Fprintln(a.out, "note: memories an earlier setup brought in from Claude's auto memory stay in memdir's directory (memdir path shows it)")
	}
	if opts.print {
		fmt.Fprintln(a.out, "(--print: nothing was written)")
	}
	for _, h := range hints {
		fmt.Fprintf(a.out, "next: %s\n", h)
	}
	return nil
}

// printSetupImport says what setup brought in from Claude's auto memory.
func printSetupImport(a *app, r *importer.Report) {
	verb := map[bool]string{false: "brought in", true: "would bring in"}[r.DryRun]
	fmt.Fprintf(a.out, "%s Claude Code's memories from %s: %s\n", verb, r.Source, r.Summary())
	for _, it := range r.Skipped {
		if it.Reason != "already in memory, byte for byte" && it.Reason != "already in memory" {
			fmt.Fprintf(a.out, "  skipped %s: %s\n", it.Source, it.Reason)
		}
	}
}
