package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/importer"
	"github.com/memdir/memdir/memdir"
	"github.com/memdir/memdir/progress"
)

type importOptions struct {
	from   string
	dryRun bool
	quiet  bool
}

func newImportCmd(a *app) *cobra.Command {
	var opts importOptions
	cmd := &cobra.Command{
		Use:   "import PATH",
		Short: "Bring memories in from another memory tool",
		Long: `Bring the memories PATH holds into this project's memory. The kind of source
is told from what PATH holds, or named with --from:

  claude        Claude Code's auto memory: one project's memory directory,
                ~/.claude/projects (every project's) or ~/.claude
  gemini        Gemini CLI's saved memories: the "## Gemini Added Memories"
                section of GEMINI.md (the file, or ~/.gemini), or 0.61's
                private memory folder ~/.gemini/tmp/<project>/memory
  mcp-memory    the reference MCP memory server's memory.jsonl (or memory.json)
  basic-memory  a folder of basic-memory notes (or one note)
  mem0          a mem0 export (get_all JSON) or OpenMemory's export zip
  claude-mem    claude-mem's SQLite database (~/.claude-mem/claude-mem.db),
                read through the sqlite3 program

A Claude memory file that no memory here names is copied byte for byte;
everything else is added as ` + "`memdir add`" + ` adds it: a topic of the same name (or
a similar one) is merged into, a memory without a type gets one by the
dream's rules, relative dates become absolute against the memory's own
date, and what looks like a credential is skipped. Nothing at the source is
changed. A second import of the same source changes nothing. docs/import.md
lists each format and the release it was read from.

It prints a line per memory, then the counts (--quiet: the counts alone);
on a terminal, an import that takes over a second shows its progress on
standard error.

Examples:
  memdir import ~/.claude/projects/-home-me-app/memory
  memdir import ~/.gemini/GEMINI.md --dry-run
  memdir import memory.jsonl --from mcp-memory --json
  memdir import ~/.claude/projects --quiet`,
		Args: exactArgs(1, "one PATH to import from"),
		RunE: func(_ *cobra.Command, args []string) error { return runImport(a, opts, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.from, "from", "", "the kind of source: claude, gemini, mcp-memory, basic-memory, mem0, claude-mem (default: told from PATH)")
	f.BoolVar(&opts.dryRun, "dry-run", false, "say what would be imported; write nothing")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print the counts only, not a line per memory")
	return cmd
}

func runImport(a *app, opts importOptions, path string) error {
	cwd, err := a.cwd()
	if err != nil {
		return err
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	kind := importer.Kind(opts.from)
	if opts.from != "" {
		if kind, err = importer.ParseKind(opts.from); err != nil {
			return err
		}
	} else if kind, err = importer.Detect(path); err != nil {
		return err
	}
	mems, skips, err := importer.Read(kind, path)
	if err != nil {
		return err
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	d := ws.Dir
	if !opts.dryRun {
		if err := ws.Claim(); err != nil {
			return err
		}
	}
	rep, err := importInto(a, d, kind, path, mems, skips, opts.dryRun)
	if err != nil {
		return err
	}
	if a.json {
		return a.writeJSON(rep)
	}
	printImport(a, rep, opts.quiet)
	return nil
}

// importInto writes into d in live mode: an import makes topics whatever
// mode the directory is in, so a second run finds them and changes nothing.
func importInto(a *app, d *memdir.Dir, kind importer.Kind, path string, mems []importer.Memory, skips []importer.Skip, dry bool) (importer.Report, error) {
	if d.Mode != memdir.Live {
		live := *d
		live.Mode = memdir.Live
		d = &live
	}
	bar := progress.New(a.errw, "import", "memories", len(mems))
	defer bar.Done()
	return importer.Import(d, kind, path, mems, skips, importer.Options{DryRun: dry, Now: a.now(),
		Progress: func(int, int) { bar.Add(1) }})
}

// printImport writes the report: one line a memory (unless quiet), then
// the summary.
func printImport(a *app, r importer.Report, quiet bool) {
	if !quiet {
		printImportItems(a, r)
	}
	tail := ""
	if r.DryRun {
		tail = " (--dry-run: nothing was written)"
	}
	fmt.Fprintf(a.out, "%s from %s: %s%s\n", strings.TrimSpace(string(r.Kind)), r.Source, r.Summary(), tail)
}

// printImportItems writes a line for each memory the import created,
// merged or skipped.
func printImportItems(a *app, r importer.Report) {
	verb := map[bool]string{false: "", true: "would be "}[r.DryRun]
	for _, it := range r.Created {
		fmt.Fprintf(a.out, "%screated %s  <- %s\n", verb, it.File, it.Source)
	}
	for _, it := range r.Merged {
		fmt.Fprintf(a.out, "%smerged  %s  <- %s\n", verb, it.File, it.Source)
	}
	for _, it := range r.Skipped {
		fmt.Fprintf(a.out, "skipped %s: %s\n", it.Source, it.Reason)
	}
}
