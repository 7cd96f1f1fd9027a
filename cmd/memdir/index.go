package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/index"
	"github.com/memdir/memdir/memdir"
)

type indexOptions struct {
	check, rebuild, fit, team bool
}

func newIndexCmd(a *app) *cobra.Command {
	var opts indexOptions
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Print MEMORY.md as an agent loads it, or check and repair it",
		Long: `Print the index exactly as Claude Code loads it at session start: the
trimmed text, at most 200 lines, then at most 25,000 characters (UTF-16 code
units, cut at the last line break inside the limit), then Claude's one-line
warning when anything was cut, and a final newline. The entries that were
not loaded are named on standard error (ten at most; --check names them all).

--check   report dangling links, unindexed topics, duplicates, long lines,
          and the conflict copies a sync or git pull kept
--rebuild rewrite the index from the topic files (hand-written lines stay);
          when entries would land past a cap, where agents do not load
          them, it is fitted as --fit does
--fit     rewrite it to stay under 70% of both caps; entries that do not fit
          move to MEMORY-<type>.md overflow indexes, no topic is deleted
--team    the project's team memory index (docs/team.md) instead of
          yours, printed, checked, rebuilt or fitted; --check marks its
          findings "team:" ("scope": "team" in JSON). lint checks both

Examples:
  memdir index
  memdir index --check
  memdir index --check --team
  memdir index --rebuild --json
  memdir index --fit`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runIndex(a, opts) },
	}
	f := cmd.Flags()
	f.BoolVar(&opts.check, "check", false, "check the index against the topic files")
	f.BoolVar(&opts.rebuild, "rebuild", false, "rebuild the index from the topic files")
	f.BoolVar(&opts.fit, "fit", false, "fit the index under 70% of its caps")
	f.BoolVar(&opts.team, "team", false, "the project's team memory index instead of yours")
	return cmd
}

// viewJSON is the loaded index as `memdir index --json` prints it.
type viewJSON struct {
	Text      string      `json:"text"`
	Lines     int         `json:"lines"`
	Bytes     int         `json:"bytes"`
	Truncated bool        `json:"truncated"`
	Warning   string      `json:"warning,omitempty"`
	Loaded    []entryJSON `json:"loaded"`
	Dropped   []entryJSON `json:"dropped"`
	Scope     string      `json:"scope,omitempty"`
}

// entryJSON is an index entry as read commands print it.
type entryJSON struct {
	Title string `json:"title"`
	File  string `json:"file"`
	Hook  string `json:"hook,omitempty"`
}

func entriesJSON(entries []index.Entry) []entryJSON {
	out := make([]entryJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, entryJSON{Title: e.Title, File: e.File, Hook: e.Hook})
	}
	return out
}

func runIndex(a *app, opts indexOptions) error {
	if n := btoi(opts.check) + btoi(opts.rebuild) + btoi(opts.fit); n > 1 {
		return usagef("--check, --rebuild and --fit go one at a time")
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	t := indexTarget{dir: ws.Dir, name: "MEMORY.md"}
	if opts.team {
		if t.dir, _, err = a.scopeDir(ws, true); err != nil {
			return err
		}
		t.rel = teamSetting(ws)
		t.scope, t.name = scopeTeam, t.rel+"/MEMORY.md"
	}
	switch {
	case opts.check:
		findings, err := t.dir.CheckIndex()
		if err != nil {
			return err
		}
		// A conflict copy is no orphan to index: it waits to be merged.
		findings = t.dir.ConflictCopies(findings)
		if opts.team {
			return a.report(teamFindings(t.rel, findings))
		}
		return a.report(personalFindings(findings))
	case opts.rebuild, opts.fit:
		return a.rewriteIndex(t, opts.fit)
	}
	data, err := t.dir.IndexBytes()
	if err != nil {
		return err
	}
	v := index.Load(data, index.DefaultCaps)
	if a.json {
		return a.writeJSON(viewJSON{Text: v.Text, Lines: v.Lines, Bytes: v.Bytes, Truncated: v.Truncated,
			Warning: v.Warning, Loaded: entriesJSON(v.Loaded), Dropped: entriesJSON(v.Dropped), Scope: t.scope})
	}
	if note := v.DroppedNote(10); note != "" {
		a.warn("%s", t.fixes(note))
	}
	if v.Text == "" {
		return nil
	}
	_, err = fmt.Fprint(a.out, v.Text+"\n")
	return err
}

// indexTarget is the index a command acts on: yours, or with --team the
// team memory's.
type indexTarget struct {
	dir   *memdir.Dir
	scope string // scopeTeam for team memory
	rel   string // team memory's directory in the project
	name  string // the index as text names it
}

// fixes turns the commands a message suggests into the target's form.
func (t indexTarget) fixes(msg string) string {
	if t.scope == scopeTeam {
		return teamFixes.Replace(msg)
	}
	return msg
}

// rewriteIndex runs index --rebuild, or --fit, and says what the index
// is now.
func (a *app) rewriteIndex(t indexTarget, fit bool) error {
	d := t.dir
	op, verb := d.Rebuild, "rebuilt"
	if fit {
		op, verb = d.Fit, "fitted"
	}
	problems, err := op()
	if err != nil {
		return err
	}
	for _, p := range problems {
		a.warn("left out %s", p)
	}
	data, err := d.IndexBytes()
	if err != nil {
		return err
	}
	p := index.Measure(data, index.DefaultCaps)
	overflow := d.OverflowFiles()
	if a.json {
		if problems == nil {
			problems = []memdir.Problem{}
		}
		err = a.writeJSON(struct {
			indexWriteJSON
			Scope string `json:"scope,omitempty"`
		}{indexWriteJSON{Action: verb, Lines: p.Lines, Bytes: p.Bytes, Warning: t.fixes(p.Message()),
			Overflow: append([]string{}, overflow...), LeftOut: problems}, t.scope})
	} else {
		fmt.Fprintf(a.out, "%s %s: %s, %s\n", verb, t.name, memdir.Count(p.Lines, "line"), memdir.Count(p.Bytes, "character"))
		if len(overflow) > 0 {
			fmt.Fprintf(a.out, "entries past 70%% of the caps are listed in %s\n", strings.Join(overflow, ", "))
		}
	}
	if msg := p.Message(); msg != "" {
		a.warn("%s", t.fixes(msg))
	}
	return err
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
