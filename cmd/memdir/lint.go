package main

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/memgit"
	"github.com/memdir/memdir/memsync"
	wspkg "github.com/memdir/memdir/workspace"
)

type lintOptions struct {
	team bool
}

func newLintCmd(a *app) *cobra.Command {
	var opts lintOptions
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Check the memory directory and the project's team memory",
		Long: `Check everything: MEMORY.md (dangling links, topics missing from it,
duplicate lines, long lines, stray content, size caps), every topic file's
frontmatter, expired project facts, secrets on disk, special files (a FIFO
or device where a memory file belongs) and git lock files memdir did not
take, which stop its commits, and the conflict copies a sync or git pull
kept (<topic>.conflict-<hash>.md) until a person merges them. Exits 1 when
it finds anything.

The project's team memory (docs/team.md) gets the same checks. Its
findings start with "team:" and name the file by its path in the project
(in JSON: "scope": "team", the file relative to the team directory). A
team.dir that leads out of the project is one finding, and nothing there
is read. --team checks only team memory.

Examples:
  memdir lint
  memdir lint --team
  memdir lint --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runLint(a, opts) },
	}
	cmd.Flags().BoolVar(&opts.team, "team", false, "check only the project's team memory")
	return cmd
}

func runLint(a *app, opts lintOptions) error {
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	tm, refused, err := a.lintTeam(ws, opts.team)
	if err != nil {
		return err
	}
	var findings []lintFinding
	if !opts.team && ws.Dir.Exists() {
		fs, err := lintDir(ws.Dir)
		if err != nil {
			return err
		}
		fs = append(fs, gitLockFindings(ws.Loc.Dir, a.wall())...)
		findings = personalFindings(fs)
	} else if !opts.team && tm == nil && refused == nil {
		return usagef("no memory yet at %s: `memdir add` or `memdir init` creates it", ws.Loc.Dir)
	}
	if refused != nil {
		findings = append(findings, *refused)
	}
	if tm != nil {
		fs, err := lintDir(tm.Dir)
		if err != nil {
			return fmt.Errorf("team memory %s: %w", tm.Rel, err)
		}
		findings = append(findings, teamFindings(tm.Rel, fs)...)
	}
	return a.report(findings)
}

// lintDir makes every check of one memory directory but git's locks.
func lintDir(d *memdir.Dir) ([]memdir.Finding, error) {
	findings, err := d.Lint()
	if err != nil {
		return nil, err
	}
	findings = d.ConflictCopies(findings)
	findings = append(findings, heldFindings(d.Path)...)
	return append(findings, d.SpecialFiles()...), nil
}

// heldFindings are the files syncs held back in dir and nobody resolved.
func heldFindings(dir string) []memdir.Finding {
	var out []memdir.Finding
	for _, h := range memsync.Unresolved(dir) {
		out = append(out, memdir.Finding{Kind: "held", Level: memdir.LevelError, File: h.File, Msg: h.Message()})
	}
	return out
}

// lintTeam opens the team memory lint checks: nil when the project has
// none, or a finding instead when team.dir was refused (nothing outside
// the project is read then). With only (--team), no team memory is bad
// usage.
func (a *app) lintTeam(ws *workspace, only bool) (*teamMemory, *lintFinding, error) {
	if only {
		if _, _, err := a.scopeDir(ws, true); err != nil {
			return nil, nil, err
		}
	}
	if a.agentType != "" {
		return nil, nil, nil
	}
	tm, err := a.teamExisting(ws)
	if err != nil {
		rel := teamSetting(ws)
		return nil, &lintFinding{Finding: memdir.Finding{Kind: "team-dir", Level: memdir.LevelError, File: rel,
			Msg: "team memory left out: " + err.Error()}, Scope: scopeTeam, shown: rel}, nil
	}
	return tm, nil, nil
}

// teamSetting is the team.dir setting (or its default), cleaned and
// slash-separated, as team memory's findings name it.
func teamSetting(ws *workspace) string { return wspkg.TeamSetting(ws.Settings) }

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

// lintFinding is a finding as lint and index --check print it. One made
// in team memory carries "scope": "team" in JSON; in text it starts with
// "team: " and names its file by the path in the project.
type lintFinding struct {
	memdir.Finding
	Scope string `json:"scope,omitempty"`
	shown string // the file as text names it, for a team finding
}

func (f lintFinding) String() string {
	if f.Scope == "" {
		return f.Finding.String()
	}
	g := f.Finding
	g.File = f.shown
	return f.Scope + ": " + g.String()
}

func personalFindings(fs []memdir.Finding) []lintFinding {
	out := make([]lintFinding, 0, len(fs))
	for _, f := range fs {
		out = append(out, lintFinding{Finding: f})
	}
	return out
}

// teamFixes words findings for team memory: the commands they suggest
// take --team.
var teamFixes = strings.NewReplacer(
	"`memdir index --rebuild`", "`memdir index --rebuild --team`",
	"`memdir index --fit`", "`memdir index --fit --team`",
	"`memdir resolve ", "`memdir resolve --team ")

// teamFindings marks the findings made in the team memory at rel (its
// path in the project).
func teamFindings(rel string, fs []memdir.Finding) []lintFinding {
	out := make([]lintFinding, 0, len(fs))
	for _, f := range fs {
		f.Msg = teamFixes.Replace(f.Msg)
		out = append(out, lintFinding{Finding: f, Scope: scopeTeam, shown: path.Join(rel, f.File)})
	}
	return out
}

// report prints findings; any error among them makes the exit status 1.
func (a *app) report(findings []lintFinding) error {
	errs := 0
	for _, f := range findings {
		if f.Level == memdir.LevelError {
			errs++
		}
	}
	if a.json {
		if findings == nil {
			findings = []lintFinding{}
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
