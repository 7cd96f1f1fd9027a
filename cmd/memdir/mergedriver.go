package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memdir/memdir/atomicfile"
	"github.com/memdir/memdir/memsync"
	"github.com/memdir/memdir/untrusted"
)

// newMergeDriverCmd is git's merge driver for memory (hidden): git runs
// it, as `memdir init` registers it, for each memory file both sides of
// a merge changed.
func newMergeDriverCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:    "merge-driver BASE OURS THEIRS PATH",
		Short:  "Merge one memory file for git, as memdir sync does",
		Hidden: true,
		Long: `git runs this for a memory file both sides of a merge changed, when
.gitattributes names merge=memdir and the repository's config has
merge.memdir.driver (memdir init registers both for a memory directory
in a git work tree). MEMORY.md and MEMORY-<type>.md merge by entry,
topics as lists of facts; when both sides changed the same fact of a
topic, the file keeps ours and theirs is written beside it as
<name>.conflict-<id>.md. The result replaces OURS, as git expects. A
file that is not one of memdir's (MEMORY.md, MEMORY-<type>.md,
<type>_<slug>.md) is handed back to git as a conflict (exit 1), and so
is a merge whose incoming side holds what looks like a credential (ours
is kept, nothing of theirs is written).

Example (.git/config):
  [merge "memdir"]
  	driver = memdir sync merge-driver %O %A %B %P`,
		Args: exactArgs(4, "git's %O %A %B %P"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMergeDriver(cmd.Context(), a, args[0], args[1], args[2], args[3])
		},
	}
}

func runMergeDriver(ctx context.Context, a *app, base, ours, theirs, path string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if a.json {
		return usagef("merge-driver writes the merge into OURS for git; --json does not apply")
	}
	cwd, err := a.cwd()
	if err != nil {
		return err
	}
	var sides [3][]byte
	for i, f := range []string{base, ours, theirs} {
		if !filepath.IsAbs(f) {
			f = filepath.Join(cwd, f)
		}
		if sides[i], err = untrusted.ReadFile(f, "", untrusted.MaxMemory); err != nil {
			return err
		}
	}
	res, err := memsync.MergeFile(ctx, filepath.Base(path), sides[0], sides[1], sides[2])
	if err != nil {
		return err
	}
	// git runs drivers at the top of the work tree, where path starts.
	dir := filepath.Dir(filepath.FromSlash(path))
	if res.Held != "" {
		a.warn("%s: %s", path, res.Held)
		if err := atomicfile.WriteFile(absIn(cwd, ours), res.Merged, 0o644); err != nil {
			return err
		}
		return fmt.Errorf("%s: held back: merge it by hand", path)
	}
	if res.Conflict != "" {
		rel := filepath.Join(dir, res.Conflict)
		if err := atomicfile.WriteInside(cwd, rel, res.ConflictData, atomicfile.Options{Perm: 0o644}); err != nil {
			return err
		}
		a.warn("%s: both sides changed one fact; ours stays, theirs is in %s: memdir resolve %s --keep mine|theirs|both", path, filepath.ToSlash(rel), filepath.Base(rel))
	}
	if res.Restore != "" {
		if err := a.restorePaired(cwd, dir, path, res); err != nil {
			return err
		}
	}
	oursPath := ours
	if !filepath.IsAbs(oursPath) {
		oursPath = filepath.Join(cwd, oursPath)
	}
	if err := atomicfile.WriteFile(oursPath, res.Merged, 0o644); err != nil {
		return err
	}
	if !res.Clean {
		return fmt.Errorf("%s: not one of memdir's memory files; git's conflict markers are left in it: resolve them as for any file", path)
	}
	return nil
}

// absIn is name, relative to cwd unless absolute.
func absIn(cwd, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(cwd, name)
}

// restorePaired writes back the memory git's rename detection paired
// with path, under its own name: git dropped it from the merge, so it is
// left for the person to add. When a file has that name (ours, which git
// removes once the merge is done), it is written as <stem>_restored.md, a
// topic of its own that no step of the merge touches.
func (a *app) restorePaired(cwd, dir, path string, res *memsync.FileMerge) error {
	rel := filepath.Join(dir, res.Restore)
	if _, err := atomicfile.StatInside(cwd, rel); err == nil {
		rel = filepath.Join(dir, strings.TrimSuffix(res.Restore, ".md")+"_restored.md")
		if _, err := atomicfile.StatInside(cwd, rel); err == nil {
			rel = filepath.Join(dir, memsync.ConflictName(filepath.Base(rel), res.RestoreData))
		}
	}
	if err := atomicfile.WriteInside(cwd, rel, res.RestoreData, atomicfile.Options{Perm: 0o644}); err != nil {
		return err
	}
	a.warn("%s: git paired it with another memory (one side removed a topic and added one that looks alike); %s stays as it is, and the other memory is written back as %s: add it (git add) and list it (memdir index --rebuild)", path, path, filepath.ToSlash(rel))
	return nil
}
